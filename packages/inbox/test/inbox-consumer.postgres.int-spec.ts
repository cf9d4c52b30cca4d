import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { committedTotal } from './fixtures/kafka-reads';
import { useInboxTestBed } from './fixtures/inbox-test-app';

/**
 * An InboxModule consumer on a PostgreSQL DataSource, fed by Kafka: each event applied once,
 * in version order, its redeliveries absorbed and counted, an early version parked until the
 * one before it arrives.
 */
describe('Inbox consumer on PostgreSQL', () => {
  const bed = useInboxTestBed('inbox_pg_consumer', { engine: 'postgres' });

  describe.each([
    ['one message per transaction', 1],
    ['batched mode', 20],
  ])('in %s', (mode, batchSize) => {
    it('applies each event once and in order, and counts the duplicates it absorbed', async () => {
      const { topic, options } = await bed.channel(`inbox.pg-consumer${batchSize}`, 1);
      const id = (n: number) => `pg${batchSize}-${n}`;
      const first = parcelEvent('registered', id(1), 1);
      const shipped = parcelEvent('shipped', id(1), 2);
      const other = parcelEvent('registered', id(2), 1);
      const early = parcelEvent('shipped', id(3), 2);
      const late = parcelEvent('registered', id(3), 1);
      const sent = [first, shipped, shipped, shipped, other, other, early, late];
      await bed.producer.send({ topic, messages: sent.map(toMessage) });

      const app = await bed.startApp({ ...options, inbox: { batchSize } });
      try {
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, options.consumer, topic)) === 8,
          {
            description: `all 8 deliveries acknowledged (${mode})`,
          },
        );
        // The same event again, after its row committed long ago: still nothing applied twice.
        await bed.producer.send({ topic, messages: [toMessage(first)] });
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, options.consumer, topic)) === 9,
          {
            description: 'the late redelivery acknowledged',
          },
        );

        expect(await bed.effectVersions(id(1))).toEqual([1, 2]);
        expect(await bed.effectVersions(id(2))).toEqual([1]);
        expect(await bed.effectVersions(id(3))).toEqual([1, 2]);
        const inbox = (await bed.dataSource.query(
          `SELECT event_key, outcome, duplicate_count FROM t_inbox WHERE consumer = $1`,
          [options.consumer],
        )) as Array<{ event_key: string; outcome: string; duplicate_count: number }>;
        expect(
          new Set(inbox.map((r) => `${r.event_key} ${r.outcome} ${r.duplicate_count}`)),
        ).toEqual(
          new Set([
            `${first.eventKey} applied 1`,
            `${shipped.eventKey} applied 2`,
            `${other.eventKey} applied 1`,
            `${early.eventKey} applied 0`,
            `${late.eventKey} applied 0`,
          ]),
        );
        const gates = (await bed.dataSource.query(
          `SELECT aggregate_id, last_version, parked_count FROM t_inbox_version
           WHERE consumer = $1 ORDER BY aggregate_id`,
          [options.consumer],
        )) as Array<{ aggregate_id: string; last_version: number; parked_count: number }>;
        expect(gates).toEqual([
          { aggregate_id: id(1), last_version: 2, parked_count: 0 },
          { aggregate_id: id(2), last_version: 1, parked_count: 0 },
          { aggregate_id: id(3), last_version: 2, parked_count: 0 },
        ]);
        expect(
          await app.operations.deliveriesOf([{ aggregateType: 'Parcel', aggregateId: id(3) }]),
        ).toHaveLength(2);
        expect((await app.operations.stats()).parkedNow).toBe(0);
      } finally {
        await app.close();
      }
    });
  });

  it('parks the successors of a missing version, and applies them in order once it is skipped', async () => {
    const { topic, options } = await bed.channel('inbox.pg-gap', 1);
    const sent = [
      parcelEvent('registered', 'pg-gap', 1),
      parcelEvent('shipped', 'pg-gap', 3),
      parcelEvent('returned', 'pg-gap', 4),
    ];
    await bed.producer.send({ topic, messages: sent.map(toMessage) });
    const app = await bed.startApp(options);
    try {
      await waitFor(async () => (await app.operations.stats()).parkedNow === 2, {
        description: 'versions 3 and 4 parked behind the missing 2',
      });
      expect(await bed.effectVersions('pg-gap')).toEqual([1]);
      const skipped = await app.operations.skipVersion({
        aggregateType: 'Parcel',
        aggregateId: 'pg-gap',
        version: 2,
        reason: 'never written upstream',
      });
      expect(skipped).toMatchObject({ skippedVersion: 2, drained: 2, lastVersion: 4 });
      expect(await bed.effectVersions('pg-gap')).toEqual([1, 3, 4]);
      expect((await app.operations.stats()).parkedNow).toBe(0);
    } finally {
      await app.close();
    }
  });
});
