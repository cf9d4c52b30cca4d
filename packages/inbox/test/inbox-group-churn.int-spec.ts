import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { committedTotal } from './fixtures/kafka-reads';
import { InboxTestApp, startInboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

const PARTITIONS = 3;
const PARCELS_PER_PARTITION = 4;

/**
 * A second member joins while the first one works through slow batches on every partition it
 * reads, committing every 5 messages. Its next commit lands in the rebalance (the mock answers
 * REBALANCE_IN_PROGRESS to any commit while the group is joining; a real broker accepts commits
 * while it waits for the members and refuses them once it is syncing or has expelled a member
 * that came too late). Every partition, the retry topic's too, holds slow work, so that no idle
 * fetch notices the rebalance first by a heartbeat: the refused commit is what tells the
 * consumer. It must send it back into the group, not crash it.
 */
describe('Inbox under group churn', () => {
  const bed = useInboxTestBed('inbox_churn');
  // A commit every 300 ms or so (5 messages of 60 ms): one of them meets the rebalance.
  const slowChunks = { batchSize: 1, offsetCommitEvery: 5 };
  const groupTiming = { rebalanceTimeoutMs: 2_000 };

  async function appliedKeys(prefix: string): Promise<string[]> {
    const rows = (await bed.dataSource.query(
      'SELECT event_key FROM t_test_effect WHERE aggregate_id LIKE ?',
      [`${prefix}%`],
    )) as Array<{ event_key: string }>;
    return rows.map((r) => r.event_key).sort();
  }

  describe('when a member joins while another is committing a long batch', () => {
    it('rejoins without a crash, keeps consuming, and applies every event once', async () => {
      const { topic, options } = await bed.channel('inbox.churn', PARTITIONS);
      /** Versions from..to of the parcels of one partition, all sent to that partition. */
      const send = async (target: string, partition: number, from: number, to: number) => {
        const events = Array.from({ length: PARCELS_PER_PARTITION }, (_, i) =>
          Array.from({ length: to - from + 1 }, (_, v) =>
            parcelEvent('shipped', `churn-${target === topic ? partition : 'r'}-${i}`, from + v),
          ),
        ).flat();
        await bed.producer.send({
          topic: target,
          messages: events.map((e) => ({ ...toMessage(e), partition })),
        });
        return events;
      };
      const sendAll = async (from: number, to: number): Promise<EventEnvelope[]> => [
        ...(
          await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => send(topic, p, from, to)))
        ).flat(),
        ...(await send(options.retryTopic, 0, from, to)),
      ];
      const sent = await sendAll(1, 8);

      const slow = behaviour('a', 60);
      let a: InboxTestApp | undefined;
      let b: InboxTestApp | undefined;
      try {
        a = await startInboxTestApp({
          ...options,
          behaviour: slow,
          groupTiming,
          inbox: slowChunks,
        });
        await waitFor(() => slow.attempts.size >= 4, { description: 'a inside its first batches' });
        b = await startInboxTestApp({
          ...options,
          behaviour: behaviour('b', 0),
          groupTiming,
          inbox: slowChunks,
        });
        const first = a;
        await waitFor(() => first.metrics.groupJoins >= 2, {
          description: 'a back in the group after its commit was refused',
          timeoutMs: 40_000,
        });
        sent.push(...(await sendAll(9, 10)));
        const acknowledged = async () =>
          (await committedTotal(bed.env.kafka, options.consumer, topic)) +
          (await committedTotal(bed.env.kafka, options.consumer, options.retryTopic));
        await waitFor(async () => (await acknowledged()) === sent.length, {
          description: 'every delivery acknowledged',
          timeoutMs: 60_000,
        });

        expect({ a: a.metrics.consumerCrashes, b: b.metrics.consumerCrashes }).toEqual({
          a: 0,
          b: 0,
        });
        // Effects = distinct inputs: what was applied and not committed came again and was absorbed.
        expect(await appliedKeys('churn-')).toEqual(sent.map((e) => e.eventKey).sort());
      } finally {
        await a?.close();
        await b?.close();
      }
    });
  });
});

function behaviour(instance: string, workMs: number): TestBehaviour {
  const b = new TestBehaviour();
  b.instance = instance;
  b.workMs = workMs;
  return b;
}
