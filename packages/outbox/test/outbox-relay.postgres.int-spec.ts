import { waitFor } from '@app/test-kit';
import { OutboxCommitNotifier, OutboxWriter } from '../src';
import {
  consumeUntil,
  duplicates,
  statusCounts,
  versionsOutOfOrder,
  writeParcelEvents,
} from './outbox-test-kit';
import { useRelayTestBed } from './relay-test-bed';

/** The relay end to end on PostgreSQL: OutboxWriter in the app's transactions → Kafka. */
describe('OutboxRelay on PostgreSQL', () => {
  const bed = useRelayTestBed('outbox_relay_pg', 'outbox-pg-test', 10, {}, 'postgres');
  const writer = new OutboxWriter();

  it('two relays drain 600 events: each published once, versions in order per key', async () => {
    const topic = await bed.env.createTopic('outbox.pg.drain', 4);
    const keys = await writeParcelEvents(bed.dataSource, writer, 200, 3);
    const relays = [1, 2].map(() => bed.relay(topic, { batchSize: 50 }));
    relays.forEach((r) => r.start());
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 600, {
        timeoutMs: 45_000,
        description: 'all 600 rows SENT',
      });
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 600);

    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(duplicates(messages)).toEqual([]);
    expect(versionsOutOfOrder(messages)).toEqual([]);
    expect(relays.every((r) => r.counts().published > 0)).toBe(true);
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 600 });
  }, 90_000);

  it('publishes at once when a transaction that wrote events commits, not at the next poll', async () => {
    const topic = await bed.env.createTopic('outbox.pg.wake', 1);
    const notifier = new OutboxCommitNotifier();
    bed.dataSource.subscribers.push(notifier);
    const relay = bed.relay(topic, { pollIntervalMs: 600_000, notifier });
    relay.start();
    try {
      // Its first pass found nothing and it waits for the poll, ten minutes away.
      await waitFor(() => relay.heartbeat().idleUntil > Date.now() + 60_000, {
        description: 'the relay idle after its first pass',
      });
      const keys = await writeParcelEvents(bed.dataSource, new OutboxWriter(notifier), 5, 1, 'w');
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 5, {
        timeoutMs: 10_000,
        description: 'the 5 rows SENT on the commit wake-up',
      });
      const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 5);
      expect(messages.map((m) => m.eventKey).sort()).toEqual([...keys].sort());
    } finally {
      await relay.stop();
    }
  });
});
