import { waitFor } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxCommitNotifier, OutboxWriter } from '../src';
import { DEFAULT_OUTBOX_CHANNEL } from '../src/relay/listen-notify-wake-up';
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

  it('with listenNotify, wakes on a commit in another process, also after its session was cut', async () => {
    const topic = await bed.env.createTopic('outbox.pg.listen', 1);
    // Another process: a DataSource of its own, whose writer notifies the channel.
    const other = new DataSource({ ...bed.dataSource.options });
    await other.initialize();
    const notifier = new OutboxCommitNotifier({ notifyChannel: DEFAULT_OUTBOX_CHANNEL });
    other.subscribers.push(notifier);
    const writer = new OutboxWriter(notifier);
    const relay = bed.relay(topic, { pollIntervalMs: 600_000, listenNotify: true });
    relay.start();
    const listening = () =>
      bed.dataSource.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      ) as Promise<Array<{ pid: number }>>;
    const idle = () =>
      waitFor(() => relay.heartbeat().idleUntil > Date.now() + 60_000, {
        description: 'the relay idle, its next poll ten minutes away',
      });
    try {
      await waitFor(async () => (await listening()).length === 1, {
        description: 'one session listening',
      });
      await idle();
      const first = await writeParcelEvents(other, writer, 5, 1, 'x');
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 5, {
        timeoutMs: 10_000,
        description: "the other process's 5 rows SENT on its commit",
      });

      // A failover or an operator ends the listening session: it listens again by itself.
      const [{ pid }] = await listening();
      await bed.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitFor(async () => (await listening()).some((s) => s.pid !== pid), {
        description: 'a new session listening',
      });
      await idle();
      const second = await writeParcelEvents(other, writer, 5, 1, 'y');
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 10, {
        timeoutMs: 10_000,
        description: 'the next 5 rows SENT on their commit',
      });
      const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 10);
      expect(messages.map((m) => m.eventKey).sort()).toEqual([...first, ...second].sort());
    } finally {
      await relay.stop();
      await other.destroy();
    }
    // Stopped, the relay listens no more.
    expect(await listening()).toEqual([]);
  });
});
