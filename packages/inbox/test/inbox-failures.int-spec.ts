import { DeadLetterMessage, ReplayResult } from '@outbox-inbox/inbox';
import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { committedTotal, topicSize } from './fixtures/kafka-reads';
import { startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';

describe('Inbox failures', () => {
  const bed = useInboxTestBed('inbox_failures');

  async function effectCount(eventKey: string): Promise<number> {
    const rows = (await bed.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_test_effect WHERE event_key = ?',
      [eventKey],
    )) as Array<{ n: string }>;
    return Number(rows[0].n);
  }

  async function setup(name: string, inbox: { batchSize?: number } = {}) {
    const topic = await bed.env.createTopic(`inbox.${name}`, 2);
    const deadLetterTopic = await bed.env.createTopic(`inbox.${name}.dlq`, 1);
    const retryTopic = await bed.retryTopicOf(`c-${topic}`);
    const app = await startInboxTestApp({
      databaseUrl: bed.databaseUrl,
      brokers: bed.env.infra.kafkaBrokers,
      consumer: `c-${topic}`,
      topics: [topic],
      deadLetterTopic,
      retryTopic,
      http: true,
      inbox,
    });
    return { topic, deadLetterTopic, retryTopic, consumer: `c-${topic}`, app };
  }

  describe('when a poison message arrives', () => {
    it('dead-letters it with the original key, value and headers plus the failure, and the next message still flows', async () => {
      const { topic, deadLetterTopic, app } = await setup('poison');
      try {
        const next = parcelEvent('registered', 'after-poison', 1);
        await bed.producer.send({
          topic,
          messages: [
            { key: 'after-poison', value: '{not json', headers: { origin: 'test' } },
            toMessage(next),
          ],
        });
        await waitFor(async () => (await effectCount(next.eventKey)) === 1, {
          description: 'the message after the poison applied',
        });
        await waitFor(async () => (await topicSize(bed.env.kafka, deadLetterTopic)) === 1, {
          description: 'poison dead-lettered',
        });
        const [dead] = await app.deadLetters.list();
        expect(dead).toMatchObject({
          key: 'after-poison',
          errorCode: 'NOT_JSON',
          attempts: 1,
          sourceTopic: topic,
          replayedAt: null,
        });
        // Nothing in the inbox for the poison; the stats count it.
        expect((await app.operations.stats()).deadLetterTopicMessages).toBe(1);
      } finally {
        await app.close();
      }
    });
  });

  describe('when an envelope breaks its contract', () => {
    it('dead-letters it as INVALID_EVENT, the code the README lists, and a replay by that code selects it', async () => {
      const { topic, deadLetterTopic, retryTopic, app } = await setup('invalid');
      try {
        const invalid = parcelEvent('registered', 'invalid-1', 1);
        const message = toMessage(invalid);
        const value = JSON.parse(String(message.value)) as { payload: { declaredValue: unknown } };
        value.payload.declaredValue = 'a lot';
        await bed.producer.send({
          topic,
          messages: [{ ...message, value: JSON.stringify(value) }],
        });
        await waitFor(async () => (await topicSize(bed.env.kafka, deadLetterTopic)) === 1, {
          description: 'invalid envelope dead-lettered',
        });
        const [dead] = await app.deadLetters.list();
        expect(dead).toMatchObject({ eventKey: invalid.eventKey, errorCode: 'INVALID_EVENT' });

        const byCode = await app.deadLetters.replay({ errorCode: 'INVALID_EVENT' });
        expect(byCode.replayed).toEqual([
          { partition: dead.partition, offset: dead.offset, targetTopic: retryTopic },
        ]);
      } finally {
        await app.close();
      }
    });
  });

  describe('when an operator sends a bad request', () => {
    it('answers 400 with the failing fields, replays nothing, and publishes nowhere but its retry topic', async () => {
      const { topic, deadLetterTopic, retryTopic, app } = await setup('bad-input');
      try {
        const poison = { key: 'bad-input', value: '{not json' };
        await bed.producer.send({ topic, messages: [poison] });
        await waitFor(async () => (await topicSize(bed.env.kafka, deadLetterTopic)) === 1, {
          description: 'poison dead-lettered',
        });
        const base = await app.app.getUrl();
        const send = async (path: string, body?: unknown) => {
          const response = await fetch(`${base}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const answer = (await response.json()) as { fieldErrors?: Array<{ path: string }> };
          return [response.status, answer.fieldErrors?.map((e) => e.path)];
        };
        const replay = (body: unknown) => send('/inbox/dead-letters/replay', body);
        expect(await replay({ all: true, targetTopic: 'someone.elses.topic' })).toEqual([
          400,
          ['targetTopic'],
        ]);
        expect(await replay({ all: true, targetTopic: deadLetterTopic })).toEqual([
          400,
          ['targetTopic'],
        ]);
        // The source topic is read by every group: a replay never goes there.
        expect(await replay({ all: true, targetTopic: topic })).toEqual([400, ['targetTopic']]);
        expect(await replay({ all: true, dryRun: 'yes' })).toEqual([400, ['dryRun']]);
        expect(await replay({ errorCode: 'EVENT_INVALID' })).toEqual([400, ['errorCode']]);
        expect(await replay({ messages: [{ partition: -1, offset: 'x' }] })).toEqual([
          400,
          ['messages.0.partition', 'messages.0.offset'],
        ]);
        expect(await replay({ all: 'yes' })).toEqual([400, ['all']]);
        expect(await replay({})).toEqual([400, ['(root)']]);
        expect(await send('/inbox/deliveries')).toEqual([400, ['aggregate']]);
        expect(await send('/inbox/deliveries?aggregate=parcel')).toEqual([400, ['aggregate']]);
        expect(await topicSize(bed.env.kafka, topic)).toBe(1); // nothing was replayed
        expect(await topicSize(bed.env.kafka, retryTopic)).toBe(0);

        expect(await replay({ all: true, targetTopic: retryTopic })).toEqual([200, undefined]);
        await waitFor(async () => (await topicSize(bed.env.kafka, retryTopic)) === 1, {
          description: "the poison replayed to the consumer's retry topic",
        });
        expect(await topicSize(bed.env.kafka, topic)).toBe(1);
      } finally {
        await app.close();
      }
    });
  });

  describe('when a handler rejects an event and the fix ships', () => {
    it('replays it from the dead-letter topic once, and not again unless asked', async () => {
      const { topic, deadLetterTopic, retryTopic, consumer, app } = await setup('replay');
      try {
        const rejected = parcelEvent('registered', 'replay-1', 1);
        const applied = parcelEvent('registered', 'replay-2', 1);
        app.behaviour.rejected.add(rejected.eventKey);
        await bed.producer.send({ topic, messages: [rejected, applied].map(toMessage) });
        await waitFor(async () => (await committedTotal(bed.env.kafka, consumer, topic)) === 2, {
          description: 'both messages acknowledged',
        });
        expect(await effectCount(rejected.eventKey)).toBe(0);
        expect(app.behaviour.attempts.get(rejected.eventKey)).toBe(1); // no retries
        // A copy of the applied event in the DLQ too: its replay must be absorbed.
        await bed.producer.send({
          topic: deadLetterTopic,
          messages: [
            {
              ...toMessage(applied),
              headers: { ...toMessage(applied).headers, 'inbox-source-topic': topic },
            },
          ],
        });

        const base = await app.app.getUrl();
        const listed = (await (
          await fetch(`${base}/inbox/dead-letters`)
        ).json()) as DeadLetterMessage[];
        expect(listed.map((m) => [m.eventKey, m.errorCode])).toEqual([
          [rejected.eventKey, 'NON_RETRYABLE'],
          [applied.eventKey, null],
        ]);

        app.behaviour.rejected.delete(rejected.eventKey); // the fix
        const replay = async (body: object) =>
          (await (
            await fetch(`${base}/inbox/dead-letters/replay`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            })
          ).json()) as ReplayResult;
        expect((await replay({ all: true })).replayed).toHaveLength(2);
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, consumer, retryTopic)) === 2,
          { description: 'replayed messages acknowledged from the retry topic' },
        );
        expect(await effectCount(rejected.eventKey)).toBe(1);
        expect(await effectCount(applied.eventKey)).toBe(1);

        expect(await replay({ all: true })).toEqual({
          matched: 2,
          replayed: [],
          skippedAlreadyReplayed: 2,
          skippedNotOwnTopic: [],
        });
        const forced = await replay({ eventType: 'ParcelRegistered', includeReplayed: true });
        expect(forced.replayed).toHaveLength(2);
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, consumer, retryTopic)) === 4,
          { description: 'forced replays acknowledged' },
        );
        expect(await effectCount(rejected.eventKey)).toBe(1);
        expect((await fetch(`${base}/inbox/dead-letters/replay`, { method: 'POST' })).status).toBe(
          400,
        );
      } finally {
        await app.close();
      }
    });
  });

  describe('when the transaction hits a deadlock or a lock-wait timeout', () => {
    it('retries the whole transaction until it succeeds, once', async () => {
      const { topic, app } = await setup('locks');
      const blocker = bed.dataSource.createQueryRunner();
      try {
        const deadlocked = parcelEvent('registered', 'lock-1', 1);
        app.behaviour.deadlocks.set(deadlocked.eventKey, 2);
        await bed.producer.send({ topic, messages: [toMessage(deadlocked)] });
        await waitFor(async () => (await effectCount(deadlocked.eventKey)) === 1, {
          description: 'deadlocked event applied after retries',
        });
        expect(app.behaviour.attempts.get(deadlocked.eventKey)).toBe(3);

        // A real lock-wait timeout (1205): the test holds the row the handler updates.
        await blocker.connect();
        await blocker.startTransaction();
        await blocker.query('SELECT n FROM t_test_lock WHERE id = 1 FOR UPDATE');
        app.behaviour.touchLockRow = true;
        const waiting = parcelEvent('registered', 'lock-2', 1);
        await bed.producer.send({ topic, messages: [toMessage(waiting)] });
        await waitFor(() => (app.behaviour.attempts.get(waiting.eventKey) ?? 0) >= 2, {
          description: 'the handler timed out on the lock and was retried',
        });
        expect(await effectCount(waiting.eventKey)).toBe(0);
        await blocker.commitTransaction();
        await waitFor(async () => (await effectCount(waiting.eventKey)) === 1, {
          description: 'applied once the lock was released',
        });
        expect(app.metrics.deadLettered).toBe(0);
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
        await app.close();
      }
    });
  });

  describe('in batched mode, when one message of a batch is rejected', () => {
    it('dead-letters that message alone and applies every other one once, in version order', async () => {
      const { topic, deadLetterTopic, consumer, app } = await setup('batch', { batchSize: 10 });
      try {
        const events = Array.from({ length: 30 }, (_, i) =>
          parcelEvent('registered', `batch-${i}`, 1),
        );
        const rejected = events[13];
        app.behaviour.rejected.add(rejected.eventKey);
        const ordered = [3, 1, 2].map((v) => parcelEvent('registered', 'batch-ord', v));
        // Two redeliveries, and versions 3, 1, 2 of one parcel inside the same batch.
        const deliveries = [
          ...events.slice(0, 5),
          ...ordered,
          ...events.slice(5),
          events[3],
          events[20],
        ];
        await bed.producer.send({ topic, messages: deliveries.map(toMessage) });
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, consumer, topic)) === deliveries.length,
          { description: 'every delivery acknowledged' },
        );
        for (const event of events) {
          expect(await effectCount(event.eventKey)).toBe(event === rejected ? 0 : 1);
        }
        expect(app.metrics.batchFallbacks).toBeGreaterThanOrEqual(1);
        const versions = (await bed.dataSource.query(
          `SELECT aggregate_version FROM t_test_effect WHERE aggregate_id = 'batch-ord' ORDER BY id`,
        )) as Array<{ aggregate_version: number }>;
        expect(versions.map((r) => Number(r.aggregate_version))).toEqual([1, 2, 3]);
        const dead = await app.deadLetters.list();
        expect(dead.map((m) => m.eventKey)).toEqual([rejected.eventKey]);
        expect(await topicSize(bed.env.kafka, deadLetterTopic)).toBe(1);
      } finally {
        await app.close();
      }
    });
  });
});
