import { InboxError } from '@outbox-inbox/inbox';
import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { BatchTestConsumer, MixedKindsConsumer } from './fixtures/batch-test-consumer.controller';
import { committedTotal, topicSize } from './fixtures/kafka-reads';
import { startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';

/** @OnEventBatch handlers: runs in batched mode, single events otherwise, order kept. */
describe('Inbox @OnEventBatch handlers', () => {
  const bed = useInboxTestBed('inbox_batch_handler');

  async function setup(name: string, batchSize: number) {
    const topic = await bed.env.createTopic(`inbox.runs.${name}`, 1);
    const deadLetterTopic = await bed.env.createTopic(`inbox.runs.${name}.dlq`, 1);
    const consumer = `c-runs-${name}`;
    const app = await bed.startApp({
      consumer,
      topics: [topic],
      deadLetterTopic,
      controllers: [BatchTestConsumer],
      inbox: { batchSize },
    });
    return { topic, deadLetterTopic, consumer, app };
  }

  /** Effects written per event key, for keys with the given prefix of aggregate ids. */
  async function effects(aggregatePrefix: string): Promise<Map<string, number>> {
    const rows = (await bed.dataSource.query(
      `SELECT event_key, COUNT(*) AS n FROM t_test_effect WHERE aggregate_id LIKE ? GROUP BY event_key`,
      [`${aggregatePrefix}%`],
    )) as Array<{ event_key: string; n: string }>;
    return new Map(rows.map((r) => [r.event_key, Number(r.n)]));
  }

  it('in batched mode, takes runs of consecutive events in one call, each event once, in version order across handler kinds', async () => {
    const { topic, consumer, app } = await setup('batched', 50);
    try {
      const created = Array.from({ length: 30 }, (_, i) =>
        parcelEvent('registered', `runs-${i}`, 1),
      );
      // One parcel's versions across both kinds of handler: 3 before 1, 2 before 4, 5 before 4.
      const mix = [
        parcelEvent('registered', 'runs-mix', 1),
        parcelEvent('shipped', 'runs-mix', 2),
        parcelEvent('returned', 'runs-mix', 3),
        parcelEvent('shipped', 'runs-mix', 4),
        parcelEvent('shipped', 'runs-mix', 5),
      ];
      const deliveries = [
        ...created.slice(0, 10),
        mix[2],
        mix[0],
        ...created.slice(10, 20),
        mix[1],
        mix[4],
        mix[3],
        ...created.slice(20),
        created[4],
        mix[0],
      ];
      await bed.producer.send({ topic, messages: deliveries.map(toMessage) });
      await waitFor(
        async () => (await committedTotal(bed.env.kafka, consumer, topic)) === deliveries.length,
        { description: 'every delivery acknowledged' },
      );

      const distinct = [...created, ...mix].map((e) => e.eventKey);
      const applied = await effects('runs-');
      expect([...applied.keys()].sort()).toEqual([...distinct].sort());
      expect([...applied.values()].every((n) => n === 1)).toBe(true);
      expect(await bed.effectVersions('runs-mix')).toEqual([1, 2, 3, 4, 5]);
      // The handlers were called once per event, most of them inside runs.
      const calls = app.behaviour.runs;
      expect(calls.flat().sort()).toEqual([...distinct].sort());
      expect(calls.length).toBeLessThan(distinct.length / 2);
      // Version 5, parked, is drained by 4 and joins 4's run: same handler, next in order.
      const [v4, v5] = [mix[3].eventKey, mix[4].eventKey];
      expect(calls.some((keys) => keys[keys.indexOf(v4) + 1] === v5)).toBe(true);
      expect(app.metrics.batchFallbacks).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('when a run holds a rejected event, settles the batch message by message, dead-letters that event alone and applies the others once', async () => {
    const { topic, deadLetterTopic, consumer, app } = await setup('rejected', 20);
    try {
      const events = Array.from({ length: 20 }, (_, i) =>
        parcelEvent('shipped', `rejects-${i}`, 1),
      );
      const rejected = events[7];
      app.behaviour.rejected.add(rejected.eventKey);
      await bed.producer.send({ topic, messages: events.map(toMessage) });
      await waitFor(
        async () => (await committedTotal(bed.env.kafka, consumer, topic)) === events.length,
        { description: 'every delivery acknowledged' },
      );
      const applied = await effects('rejects-');
      for (const event of events) {
        expect(applied.get(event.eventKey)).toBe(event === rejected ? undefined : 1);
      }
      expect(app.metrics.batchFallbacks).toBeGreaterThanOrEqual(1);
      // First inside a run of the whole batch, then alone when the batch was settled one by one.
      const withRejected = app.behaviour.runs.filter((keys) => keys.includes(rejected.eventKey));
      expect(withRejected[0].length).toBeGreaterThan(1);
      expect(withRejected).toContainEqual([rejected.eventKey]);
      const dead = await app.deadLetters.list();
      expect(dead.map((m) => m.eventKey)).toEqual([rejected.eventKey]);
      expect(await topicSize(bed.env.kafka, deadLetterTopic)).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('one event per transaction (batchSize 1): every call holds one event, each applied once', async () => {
    const { topic, consumer, app } = await setup('single', 1);
    try {
      const events = [
        ...Array.from({ length: 6 }, (_, i) => parcelEvent('registered', `singles-${i}`, 1)),
        parcelEvent('shipped', 'singles-0', 2),
      ];
      const deliveries = [...events, events[2], events[6]];
      await bed.producer.send({ topic, messages: deliveries.map(toMessage) });
      await waitFor(
        async () => (await committedTotal(bed.env.kafka, consumer, topic)) === deliveries.length,
        { description: 'every delivery acknowledged' },
      );
      expect(app.behaviour.runs).toEqual(events.map((e) => [e.eventKey]));
      const applied = await effects('singles-');
      expect([...applied.entries()].sort()).toEqual(events.map((e) => [e.eventKey, 1]).sort());
    } finally {
      await app.close();
    }
  });

  it('refuses to start a consumer that handles one event type both one by one and in runs', async () => {
    const topic = await bed.env.createTopic('inbox.runs.mixed', 1);
    const started = startInboxTestApp({
      databaseUrl: bed.databaseUrl,
      brokers: bed.env.infra.kafkaBrokers,
      consumer: 'c-runs-mixed',
      topics: [topic],
      deadLetterTopic: `${topic}.dlq`,
      retryTopic: `${topic}.retry`,
      controllers: [MixedKindsConsumer],
    });
    await expect(started).rejects.toThrow(InboxError);
    await expect(started).rejects.toMatchObject({
      code: 'INVALID_HANDLERS',
      message: expect.stringContaining('ParcelRegistered'),
    });
    // Refused before anything reached Kafka: its dead-letter topic was never created.
    const admin = bed.env.kafka.admin();
    await admin.connect();
    try {
      expect(await admin.listTopics()).not.toContain(`${topic}.dlq`);
    } finally {
      await admin.disconnect();
    }
  });
});
