import { waitFor } from '@outbox-inbox/test-kit';
import { OutboxWriter } from '../src';
import { InMemoryOutboxPublisher } from '../src/testing';
import { consumeUntil, rowsOf, statusCounts, writeParcelEvents } from './outbox-test-kit';
import { useRelayTestBed } from './relay-test-bed';

describe('OutboxRelay under faults', () => {
  // Its brokers go down: a Kafka of the file's own (the mock, or Apache Kafka behind proxies).
  const bed = useRelayTestBed('outbox_faults', 'outbox-faults', 10, { kafkaFaults: true });
  const writer = new OutboxWriter();

  it.each(['succeeds', 'fails'] as const)(
    'a stalled relay whose lease was taken over cannot record its late outcome (its send %s)',
    async (lateOutcome) => {
      const topic = await bed.env.createTopic('outbox.lease', 2);
      const keys = await writeParcelEvents(bed.dataSource, writer, 5, 1, 'lease');
      let finishStalledSend!: () => void;
      const stalledSend = new Promise<void>((resolve) => (finishStalledSend = resolve));
      const stalling = new InMemoryOutboxPublisher({
        around: async (_batches, deliver) => {
          await stalledSend;
          if (lateOutcome === 'fails') throw new Error('late produce error');
          await deliver();
        },
      });
      const stalled = bed.relay(topic, {
        publisher: stalling,
        leaseMs: 300,
        requestTimeoutMs: 100,
        producerRetries: 1,
      });
      const taker = bed.relay(topic);
      const stalledRound = stalled.relayOnce();
      try {
        await waitFor(async () => (await statusCounts(bed.dataSource)).SENDING === 5);
        await waitFor(async () => (await taker.relayOnce()) === 5, {
          description: 'the second relay claims the 5 rows once the lease expired',
        });
        expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 5 });
      } finally {
        finishStalledSend();
        await stalledRound;
        await taker.stop();
        await stalled.stop();
      }

      const rows = await rowsOf(bed.dataSource, ['lease0', 'lease1', 'lease2', 'lease3', 'lease4']);
      expect(rows.map((r) => r.status)).toEqual(Array(5).fill('SENT'));
      expect(rows.map((r) => r.retry_count)).toEqual(Array(5).fill(0));
      expect(new Set(rows.map((r) => r.lease_owner))).toEqual(new Set([taker.instanceId]));
      expect(stalled.counts().leaseLost).toBe(5);
      const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 5);
      expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    },
  );

  it('keeps rows while every broker is down and publishes all of them once brokers return', async () => {
    const faults = bed.env.infra.kafka.faults!;
    const topic = await bed.env.createTopic('outbox.down', 3);
    const keys = await writeParcelEvents(bed.dataSource, writer, 50, 1, 'down');
    const patient = bed.relay(topic, { requestTimeoutMs: 500, producerRetries: 1 });
    await faults.allDown();
    try {
      patient.start();
      await waitFor(async () => patient.counts().publishFailures >= 50 * 2, {
        description: 'two failed attempts while the brokers are down',
      });
      const during = await statusCounts(bed.dataSource);
      expect(during.SENT).toBeUndefined();
      expect(during.DEAD).toBeUndefined();
      await faults.allUp();
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 50, {
        timeoutMs: 30_000,
        description: 'all 50 rows SENT after the brokers returned',
      });
    } finally {
      await faults.allUp();
      await patient.stop();
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 50);
    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    const failed = (await bed.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_outbox WHERE retry_count > 0',
    )) as Array<{ n: string }>;
    expect(Number(failed[0].n)).toBe(50);
  });
});
