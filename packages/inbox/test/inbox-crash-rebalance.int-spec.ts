import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { crashAfterCommitCases, effects } from './fixtures/crash-after-commit';
import { committedTotal } from './fixtures/kafka-reads';
import { startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

describe('Inbox under crashes and rebalances', () => {
  const bed = useInboxTestBed('inbox_crash');

  crashAfterCommitCases(bed);

  describe('when a second consumer joins the group mid-stream and the first one leaves', () => {
    it('loses nothing, applies nothing twice, and keeps each parcel in version order', async () => {
      const { topic, options } = await bed.channel('inbox.rebalance', 4);
      const parcels = Array.from({ length: 20 }, (_, i) => `rb-${i}`);
      const phase = (from: number, to: number) =>
        parcels.flatMap((id) =>
          Array.from({ length: to - from + 1 }, (_, v) => parcelEvent('shipped', id, from + v)),
        );
      const sent = [...phase(1, 4), ...phase(5, 8), ...phase(9, 10)];
      const count = async (instance?: string) =>
        (await effects(bed)).filter(
          (e) => e.aggregate_id.startsWith('rb-') && (!instance || e.instance === instance),
        ).length;

      await bed.producer.send({ topic, messages: phase(1, 4).map(toMessage) });
      const first = await startInboxTestApp({ ...options, behaviour: named('a') });
      let second: Awaited<ReturnType<typeof startInboxTestApp>> | undefined;
      try {
        await waitFor(async () => (await count('a')) >= 10, { description: 'a consumed some' });
        second = await startInboxTestApp({ ...options, behaviour: named('b') });
        await bed.producer.send({ topic, messages: phase(5, 8).map(toMessage) });
        await waitFor(async () => (await count('b')) > 0, {
          description: 'b took over partitions',
          timeoutMs: 40_000,
        });
        await first.close();
        await bed.producer.send({ topic, messages: phase(9, 10).map(toMessage) });
        await waitFor(async () => (await count()) >= sent.length, {
          description: 'every event applied',
          timeoutMs: 40_000,
        }).catch(async (error: Error) => {
          const diag = {
            a: first.metrics,
            b: second?.metrics,
            counts: [await count('a'), await count('b')],
            committed: await committedTotal(bed.env.kafka, options.consumer, topic),
            parked: await bed.dataSource.query(
              'SELECT aggregate_id, aggregate_version FROM t_inbox_parked',
            ),
            stats: await second?.operations.stats(),
          };
          throw new Error(`${error.message}\n${JSON.stringify(diag)}`);
        });
        await waitFor(
          async () =>
            (await committedTotal(bed.env.kafka, options.consumer, topic)) === sent.length,
          {
            description: 'every delivery acknowledged',
          },
        );

        const applied = (await effects(bed)).filter((e) => e.aggregate_id.startsWith('rb-'));
        expect(applied.map((e) => e.event_key).sort()).toEqual(sent.map((e) => e.eventKey).sort());
        for (const id of parcels) {
          const versions = applied
            .filter((e) => e.aggregate_id === id)
            .map((e) => Number(e.aggregate_version));
          expect(versions).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
        }
      } finally {
        await first.close().catch(() => undefined);
        await second?.close();
      }
    });
  });
});

function named(instance: string): TestBehaviour {
  const behaviour = new TestBehaviour();
  behaviour.instance = instance;
  behaviour.workMs = 15;
  return behaviour;
}
