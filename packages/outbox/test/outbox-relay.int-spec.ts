import {
  parcelRegistered,
  ParcelRegisteredV1,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { KafkaOutboxPublisher, OutboxCommitNotifier, OutboxWriter } from '../src';
import { rowBytes } from '../src/relay/batch-bytes';
import { InMemoryOutboxPublisher } from '../src/testing';
import {
  consumeUntil,
  duplicates,
  statusCounts,
  versionsOutOfOrder,
  writeParcelEvents,
  writeVersionRuns,
} from './outbox-test-kit';
import { useRelayTestBed } from './relay-test-bed';

describe('OutboxRelay', () => {
  const bed = useRelayTestBed('outbox_relay', 'outbox-test', 20);
  const writer = new OutboxWriter();

  it('three relays drain 3,000 events: each published once, versions in order per key', async () => {
    const topic = await bed.env.createTopic('outbox.drain', 6);
    const keys = await writeParcelEvents(bed.dataSource, writer, 1_000, 3);
    const relays = [1, 2, 3].map(() => bed.relay(topic, { batchSize: 100 }));
    relays.forEach((r) => r.start());
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 3_000, {
        timeoutMs: 45_000,
        description: 'all 3,000 rows SENT',
      });
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 3_000);

    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(duplicates(messages)).toEqual([]);
    expect(messages).toHaveLength(3_000);
    expect(versionsOutOfOrder(messages)).toEqual([]);
    for (const m of messages) expect(m.key).toBe(m.aggregateId);
    expect(messages[0].headers['event-key']).toBe(messages[0].eventKey);
    // Every relay took part, so the ordering held across instances, not within one.
    expect(relays.every((r) => r.counts().published > 0)).toBe(true);
    expect(relays.reduce((sum, r) => sum + r.counts().published, 0)).toBe(3_000);
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 3_000 });
  }, 90_000);

  it('one relay claiming four batches ahead publishes runs of versions once each, in order per key', async () => {
    const topic = await bed.env.createTopic('outbox.ahead', 6);
    // 20 versions of each parcel side by side: the claims running together meet one parcel's
    // consecutive versions, and each must hold back what an earlier claim still has unsent.
    const keys = await writeVersionRuns(bed.dataSource, writer, 30, 20, 'ahead');
    const deep = bed.relay(topic, { batchSize: 10, claimsAhead: 4, ownConnections: 5 });
    deep.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 600, {
        timeoutMs: 60_000,
        description: 'all 600 rows SENT',
      });
    } finally {
      await deep.stop();
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 600);
    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(duplicates(messages)).toEqual([]);
    expect(versionsOutOfOrder(messages)).toEqual([]);
    expect(deep.counts()).toMatchObject({ published: 600, leaseLost: 0 });
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 600 });
  }, 90_000);

  it('hands back a claim made ahead whose lease no longer covers a send, and publishes every row once', async () => {
    const topic = await bed.env.createTopic('outbox.handback', 1);
    const keys = await writeParcelEvents(bed.dataSource, writer, 60, 1, 'handback');
    // Each send takes 700 ms, within the worst case the options allow (500 ms x 2 attempts).
    const slow = new InMemoryOutboxPublisher({
      around: async (_batches, deliver) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        await deliver();
      },
    });
    const sent = () => slow.messages().map((m) => m.headers['event-key']);
    // The third claim made ahead waits behind three sends (2.1 s) of its 2.5 s lease: less
    // than one worst-case send (1 s) is left, so it must go back rather than out.
    const patient = bed.relay(topic, {
      publisher: slow,
      batchSize: 10,
      claimsAhead: 3,
      ownConnections: 4,
      leaseMs: 2_500,
      requestTimeoutMs: 500,
      producerRetries: 1,
    });
    patient.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 60, {
        timeoutMs: 30_000,
        description: 'all 60 rows SENT',
      });
    } finally {
      await patient.stop();
    }
    expect(sent().sort()).toEqual([...keys].sort());
    expect(patient.counts().claimsHandedBack).toBeGreaterThanOrEqual(1);
    expect(patient.counts()).toMatchObject({ published: 60, leaseLost: 0 });
  }, 60_000);

  it('keeps each produce request within maxBatchBytes and publishes every row once, in order', async () => {
    const topic = await bed.env.createTopic('outbox.bytes', 3);
    const keys = await writeVersionRuns(bed.dataSource, writer, 10, 6, 'bytes');
    const kafka = new KafkaOutboxPublisher(
      testKafkaConfig({
        brokers: bed.env.infra.kafkaBrokers,
        clientId: 'outbox-bytes',
        logLevel: logLevel.NOTHING,
      }),
      { requestTimeoutMs: 2_000, producerRetries: 2, topicCacheMs: 60_000 },
    );
    const requests: Array<{ messages: number; bytes: number }> = [];
    const weighing = new InMemoryOutboxPublisher({
      forwardTo: kafka,
      around: async (batches, deliver) => {
        const messages = batches.flatMap((b) => b.messages);
        const bytes = messages.reduce(
          (sum, m) => sum + rowBytes({ aggregateId: m.key, payload: m.value, headers: m.headers }),
          0,
        );
        requests.push({ messages: messages.length, bytes });
        await deliver();
      },
    });
    // Two or three of these rows fit in 1,500 bytes; 100 would fit in a batch by count.
    const budget = 1_500;
    const weighed = bed.relay(topic, {
      publisher: weighing,
      batchSize: 100,
      maxBatchBytes: budget,
    });
    weighed.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 60, {
        timeoutMs: 30_000,
        description: 'all 60 rows SENT',
      });
    } finally {
      await weighed.stop();
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 60);
    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(duplicates(messages)).toEqual([]);
    expect(versionsOutOfOrder(messages)).toEqual([]);
    expect(requests.filter((r) => r.bytes > budget && r.messages > 1)).toEqual([]);
    expect(requests.some((r) => r.messages > 1)).toBe(true);
    const total = requests.reduce((sum, r) => sum + r.bytes, 0);
    expect(requests.length).toBeGreaterThanOrEqual(Math.ceil(total / budget));
  }, 60_000);

  it('publishes right after the commit, without waiting for the poll interval', async () => {
    const topic = await bed.env.createTopic('outbox.wake', 1);
    const notifier = new OutboxCommitNotifier();
    bed.dataSource.subscribers.push(notifier);
    const notifyingWriter = new OutboxWriter(notifier);
    const lazy = bed.relay(topic, { pollIntervalMs: 600_000, notifier });
    lazy.start();
    try {
      // The first idle wait starts before the commit: only the wake-up can end it in time.
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === undefined);
      await bed.dataSource.transaction((m) =>
        notifyingWriter.add(m, ParcelRegisteredV1, {
          aggregateId: 'wake1',
          aggregateVersion: 1,
          payload: parcelRegistered('wake1'),
        }),
      );
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 1, {
        timeoutMs: 10_000,
        description: 'row SENT long before the 10-minute poll',
      });
    } finally {
      await lazy.stop();
    }
    const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 1);
    expect(messages.map((m) => m.eventKey)).toEqual(['ParcelRegistered:wake1:1']);
  });

  it('on stop, finishes the in-flight batch, claims nothing more and leaves no lease behind', async () => {
    const topic = await bed.env.createTopic('outbox.stop', 1);
    await writeParcelEvents(bed.dataSource, writer, 30, 1, 'stop');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new InMemoryOutboxPublisher({
      around: async (_batches, deliver) => {
        await gate;
        await deliver();
      },
    });
    const stopping = bed.relay(topic, { publisher: slow, batchSize: 10 });
    stopping.start();
    try {
      // The first batch is on the wire; the relay may have claimed the next one already.
      await waitFor(async () => ((await statusCounts(bed.dataSource)).SENDING ?? 0) >= 10);
    } finally {
      const stopped = stopping.stop();
      release();
      await stopped;
    }

    expect(slow.messages()).toHaveLength(10);
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 10, NEW: 20 });
    const leased = (await bed.dataSource.query(
      `SELECT COUNT(*) AS n FROM t_outbox WHERE status <> 'SENT' AND lease_token IS NOT NULL`,
    )) as Array<{ n: string }>;
    expect(Number(leased[0].n)).toBe(0);
  });

  it('on stop, hands back only its own leases, not those of a relay with the same instance id', async () => {
    const topic = await bed.env.createTopic('outbox.twin', 1);
    await writeParcelEvents(bed.dataSource, writer, 10, 1, 'twin');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = new InMemoryOutboxPublisher({
      around: async (_batches, deliver) => {
        await gate;
        await deliver();
      },
    });
    // Two processes started with one instance id (a copied config, a restarted pod's name).
    const busy = bed.relay(topic, { publisher: held, batchSize: 10, instanceId: 'twin' });
    const idle = bed.relay(topic, { batchSize: 10, instanceId: 'twin' });
    busy.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENDING === 10, {
        description: 'the busy relay holds all ten rows',
      });
      idle.start();
      await idle.stop();
      // The idle twin stopped: the busy relay's rows are still its own, mid-send.
      expect(await statusCounts(bed.dataSource)).toEqual({ SENDING: 10 });
    } finally {
      release();
      await busy.stop();
    }
    expect(held.messages()).toHaveLength(10);
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 10 });
  });
});
