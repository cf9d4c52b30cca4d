import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { committedTotal } from './fixtures/kafka-reads';
import { InboxTestAppOptions, startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

describe('Inbox delivery', () => {
  const bed = useInboxTestBed('inbox_delivery');

  async function effectsByKey(): Promise<Map<string, number>> {
    const rows = (await bed.dataSource.query(
      'SELECT event_key, COUNT(*) AS n FROM t_test_effect GROUP BY event_key',
    )) as Array<{ event_key: string; n: string }>;
    return new Map(rows.map((r) => [r.event_key, Number(r.n)]));
  }

  /** An inbox app reading `topic` as `consumer`, the names `setup` gave. */
  function startApp(
    names: { topic: string; deadLetterTopic: string; retryTopic: string; consumer: string },
    extra: Partial<InboxTestAppOptions> = {},
  ) {
    return startInboxTestApp({
      databaseUrl: bed.databaseUrl,
      brokers: bed.env.infra.kafkaBrokers,
      consumer: names.consumer,
      topics: [names.topic],
      deadLetterTopic: names.deadLetterTopic,
      retryTopic: names.retryTopic,
      ...extra,
    });
  }

  async function setup(name: string, partitions = 1) {
    const topic = await bed.env.createTopic(`inbox.${name}`, partitions);
    const deadLetterTopic = await bed.env.createTopic(`inbox.${name}.dlq`, 1);
    const consumer = `c-${topic}`;
    return { topic, deadLetterTopic, retryTopic: await bed.retryTopicOf(consumer), consumer };
  }

  // The inbox row and the gate's fast path travel in one round trip when the pool allows
  // several statements per query (the default here), in two otherwise: both must hold.
  describe.each([
    ['one-trip', true],
    ['two-trips', false],
  ])('admission in %s mode', (mode, multipleStatements) => {
    describe('when the same event is delivered 1, 2 and 50 times', () => {
      it('takes effect once each', async () => {
        const names = await setup(`dup-${mode}`, 3);
        const { topic, consumer } = names;
        const once = parcelEvent('registered', `dup-1-${mode}`, 1);
        const twice = parcelEvent('registered', `dup-2-${mode}`, 1);
        const fifty = parcelEvent('registered', `dup-3-${mode}`, 1);
        const messages = [once, twice, twice, ...Array.from({ length: 50 }, () => fifty)];
        await bed.producer.send({ topic, messages: messages.map(toMessage) });

        const app = await startApp(names, { multipleStatements });
        try {
          await waitFor(async () => (await committedTotal(bed.env.kafka, consumer, topic)) === 53, {
            description: 'all 53 deliveries acknowledged',
          });
          const effects = await effectsByKey();
          expect([once, twice, fifty].map((e) => effects.get(e.eventKey))).toEqual([1, 1, 1]);
          expect(app.metrics.outcomes.duplicate).toBe(1 + 49);
          expect((await app.operations.stats()).inbox.applied).toBe(3);
        } finally {
          await app.close();
        }
      });
    });

    describe('when versions 3, 1, 2 of a parcel arrive in that order', () => {
      it('applies them as 1, 2, 3 and parks 3 durably until the gap fills', async () => {
        const names = await setup(`parcel-${mode}`);
        const { topic, consumer } = names;
        const ord = `ord-${mode}`;
        const [v1, v2, v3] = [
          parcelEvent('registered', ord, 1),
          parcelEvent('shipped', ord, 2),
          parcelEvent('returned', ord, 3),
        ];
        const app = await startApp(names, { inbox: { gapAlertMs: 1 }, multipleStatements });
        try {
          await bed.producer.send({ topic, messages: [toMessage(v3)] });
          await waitFor(async () => (await app.operations.stats()).openGaps.length === 1, {
            description: 'version 3 parked and shown as an open gap',
          });
          await bed.producer.send({ topic, messages: [toMessage(v1)] });
          await waitFor(async () => (await effectsByKey()).has(v1.eventKey), {
            description: 'version 1 applied',
          });
          // v3 still waits for v2.
          expect((await app.operations.stats()).parkedNow).toBe(1);
          expect((await effectsByKey()).has(v3.eventKey)).toBe(false);

          await bed.producer.send({ topic, messages: [toMessage(v2)] });
          await waitFor(async () => (await app.operations.stats()).parkedNow === 0, {
            description: 'parked version 3 drained',
          });
          const applied = (await bed.dataSource.query(
            `SELECT aggregate_version FROM t_test_effect WHERE aggregate_id = ? ORDER BY id`,
            [ord],
          )) as Array<{ aggregate_version: number }>;
          expect(applied.map((r) => Number(r.aggregate_version))).toEqual([1, 2, 3]);

          // A registered type this consumer does not handle advances the gate (recorded as
          // "ignored"); a version already applied is stale and changes nothing.
          const ignored = parcelEvent('lost', ord, 4);
          const stale = parcelEvent('shipped', ord, 3);
          const next = parcelEvent('shipped', ord, 5);
          await bed.producer.send({ topic, messages: [ignored, stale, next].map(toMessage) });
          await waitFor(async () => (await effectsByKey()).has(next.eventKey), {
            description: 'version 5 applied after the ignored version 4',
          });
          const outcomes = (await bed.dataSource.query(
            `SELECT event_key, outcome FROM t_inbox WHERE consumer = ?`,
            [consumer],
          )) as Array<{ event_key: string; outcome: string }>;
          expect(new Map(outcomes.map((o) => [o.event_key, o.outcome]))).toEqual(
            new Map([
              [v1.eventKey, 'applied'],
              [v2.eventKey, 'applied'],
              [v3.eventKey, 'applied'],
              [ignored.eventKey, 'ignored'],
              [stale.eventKey, 'stale'],
              [next.eventKey, 'applied'],
            ]),
          );
          expect((await effectsByKey()).has(stale.eventKey)).toBe(false);
        } finally {
          await app.close();
        }
      });
    });
  });

  describe('when a handler answers with an Observable', () => {
    it('commits once the stream completes, with its effect, once', async () => {
      const names = await setup('observable');
      const { topic, consumer } = names;
      const behaviour = new TestBehaviour();
      behaviour.returnedAsObservable = true;
      behaviour.workMs = 50;
      const cancelled = [1, 2, 3].map((n) => parcelEvent('returned', `obs-${n}`, 1));
      await bed.producer.send({ topic, messages: [...cancelled, cancelled[0]].map(toMessage) });
      const app = await startApp(names, { behaviour });
      try {
        await waitFor(async () => (await committedTotal(bed.env.kafka, consumer, topic)) === 4, {
          description: 'all four deliveries acknowledged',
        });
        const effects = await effectsByKey();
        expect(cancelled.map((e) => effects.get(e.eventKey))).toEqual([1, 1, 1]);
        expect(app.metrics.outcomes).toMatchObject({ applied: 3, duplicate: 1 });
        expect(app.metrics.deadLettered).toBe(0);
      } finally {
        await app.close();
      }
    });
  });

  describe('when inbox rows outlive the dedup window', () => {
    it('prunes them in bounded chunks and keeps the rows of parked events', async () => {
      const names = await setup('prune');
      const { topic, consumer } = names;
      const app = await startApp(names, { inbox: { dedupWindowMs: 60_000, pruneChunkSize: 2 } });
      try {
        const applied = Array.from({ length: 5 }, (_, i) =>
          parcelEvent('registered', `prune-${i}`, 1),
        );
        const parked = parcelEvent('shipped', 'prune-parked', 2);
        await bed.producer.send({ topic, messages: [...applied, parked].map(toMessage) });
        await waitFor(async () => (await committedTotal(bed.env.kafka, consumer, topic)) === 6, {
          description: 'all six acknowledged',
        });
        const inboxRows = async () =>
          Number(
            (
              (await bed.dataSource.query('SELECT COUNT(*) AS n FROM t_inbox WHERE consumer = ?', [
                consumer,
              ])) as Array<{ n: string }>
            )[0].n,
          );
        const watermark = () =>
          bed.dataSource.query(
            'SELECT pruned_before, pruned_through_id FROM t_inbox_prune WHERE consumer = ?',
            [consumer],
          ) as Promise<Array<{ pruned_before: Date; pruned_through_id: string }>>;
        expect(await app.operations.prune()).toBe(0); // all inside the window
        expect(await watermark()).toEqual([]); // nothing pruned, no watermark
        const [{ maxApplied }] = (await bed.dataSource.query(
          "SELECT MAX(id) AS maxApplied FROM t_inbox WHERE consumer = ? AND outcome <> 'parked'",
          [consumer],
        )) as Array<{ maxApplied: string }>;
        const now = new Date(Date.now() + 120_000);
        expect(await app.operations.prune(now)).toBe(5);
        expect(await inboxRows()).toBe(1);
        // The watermark says what retention removed: everything before the cutoff, up to that id.
        expect(await watermark()).toEqual([
          {
            pruned_before: new Date(now.getTime() - 60_000),
            pruned_through_id: String(maxApplied),
          },
        ]);
        expect((await app.operations.stats()).parkedNow).toBe(1);
      } finally {
        await app.close();
      }
    });
  });
});
