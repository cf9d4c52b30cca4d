import { defineEvent } from '@outbox-inbox/messaging';
import { KafkaApiKey, waitFor } from '@outbox-inbox/test-kit';
import { IsString, MaxLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { OutboxRelay, OutboxWriter } from '../src';
import { CapturingLogger, consumeUntil, statusCounts, writeParcelEvents } from './outbox-test-kit';
import { RelayTestBed, useRelayTestBed } from './relay-test-bed';

class NotePayload {
  @IsString() @MaxLength(100_000) text!: string;
}
/** Goes to a topic of its own, which the test creates only later. */
const LateNoted = defineEvent({
  eventType: 'LateNoted',
  aggregateType: 'Late',
  schemaVersion: 1,
  payload: NotePayload,
});

/** Goes to the present topic, over the relay's message limit. */
const BlobNoted = defineEvent({
  eventType: 'BlobNoted',
  aggregateType: 'Blob',
  schemaVersion: 1,
  payload: NotePayload,
});

/** The `Late` aggregates' rows: versions 1..2 of `count` aggregates. */
async function writeLateEvents(
  dataSource: DataSource,
  count: number,
  text = 'wait',
): Promise<string[]> {
  const writer = new OutboxWriter();
  const keys: string[] = [];
  await dataSource.transaction(async (m) => {
    for (let a = 0; a < count; a++) {
      for (const version of [1, 2]) {
        await writer.add(m, LateNoted, {
          aggregateId: `late${a}`,
          aggregateVersion: version,
          payload: { text },
        });
        keys.push(`LateNoted:late${a}:${version}`);
      }
    }
  });
  return keys;
}

/** Messages on `topic`, counted from its offsets: duplicates count too. */
async function messagesOn(bed: RelayTestBed, topic: string): Promise<number> {
  const admin = bed.env.kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

/** NEW and SENDING together (a snapshot may catch a claim on its way back), SENT, DEAD. */
async function unsentSentDead(dataSource: DataSource) {
  const { NEW = 0, SENDING = 0, SENT = 0, DEAD = 0 } = await statusCounts(dataSource);
  return { unsent: NEW + SENDING, SENT, DEAD };
}

async function retryCounts(dataSource: DataSource): Promise<number[]> {
  const rows = (await dataSource.query(
    "SELECT DISTINCT retry_count FROM t_outbox WHERE aggregate_type = 'Late'",
  )) as Array<{ retry_count: number | string }>;
  return rows.map((r) => Number(r.retry_count));
}

function topicRelay(
  bed: RelayTestBed,
  late: string,
  other: string,
  logger: CapturingLogger,
): OutboxRelay {
  return bed.relay(other, {
    topicFor: (type) => (type === 'Late' ? late : other),
    // Any attempt counted for the missing topic would make its rows DEAD at once.
    maxAttempts: 1,
    maxMessageBytes: 10_000,
    logger,
  });
}

describe.each(['mysql', 'postgres'] as const)('OutboxRelay and a missing topic (%s)', (engine) => {
  const bed = useRelayTestBed(`outbox_missing_topic`, 'outbox-missing-topic', 10, {}, engine);

  it('holds the rows of a missing topic without failing them, then publishes each once the topic exists', async () => {
    const other = await bed.env.createTopic('outbox.present', 2);
    const late = `outbox.late.${Date.now()}.${Math.floor(Math.random() * 1e6)}`;
    const lateKeys = await writeLateEvents(bed.dataSource, 10);
    const otherKeys = await writeParcelEvents(bed.dataSource, new OutboxWriter(), 10, 2, 'here');
    // Kafka refuses a message too large for good: that one is still DEAD, alone.
    await bed.dataSource.transaction((m) =>
      new OutboxWriter().add(m, BlobNoted, {
        aggregateId: 'blob',
        aggregateVersion: 1,
        payload: { text: 'x'.repeat(20_000) },
      }),
    );
    const logger = new CapturingLogger();
    const relay = topicRelay(bed, late, other, logger);
    relay.start();
    try {
      await waitFor(
        async () =>
          (await statusCounts(bed.dataSource)).SENT === 20 && (relay.faults()[0]?.rounds ?? 0) >= 3,
        { description: 'the present topic’s 20 rows SENT, the missing one failing 3 rounds' },
      );
      expect(relay.faults()).toEqual([
        expect.objectContaining({
          kind: 'topic',
          subject: late,
          code: 'UNKNOWN_TOPIC_OR_PARTITION',
          remedy: expect.stringContaining(`create topic ${late}`),
        }),
      ]);
      expect(await unsentSentDead(bed.dataSource)).toEqual({ unsent: 20, SENT: 20, DEAD: 1 });
      expect(await retryCounts(bed.dataSource)).toEqual([0]);
      expect(relay.counts()).toMatchObject({ dead: 1, publishFailures: 0 });
      expect(relay.counts().topicHeld).toBeGreaterThanOrEqual(20);

      await bed.env.infra.kafka.createTopics({ [late]: 3 });
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 40, {
        description: 'all 40 rows SENT once the topic exists',
      });
      expect(relay.faults()).toEqual([]);
    } finally {
      await relay.stop();
    }
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 40, DEAD: 1 });
    expect(await retryCounts(bed.dataSource)).toEqual([0]);
    const consumed = await consumeUntil(bed.env.kafka, late, (m) => m.length >= 20);
    expect(new Set(consumed.map((m) => m.eventKey))).toEqual(new Set(lateKeys));
    expect(await messagesOn(bed, late)).toBe(20);
    expect(await messagesOn(bed, other)).toBe(20);
    const present = await consumeUntil(bed.env.kafka, other, (m) => m.length >= 20);
    expect(new Set(present.map((m) => m.eventKey))).toEqual(new Set(otherKeys));
    // One line when the topic went missing, one when it took messages again.
    expect(logger.lines.filter((l) => l.includes(`topic ${late}`))).toEqual([
      expect.stringMatching(
        /^error outbox rows for topic .* wait: Kafka answers UNKNOWN_TOPIC_OR_PARTITION/,
      ),
      expect.stringMatching(/^log topic .* takes outbox messages again/),
    ]);
  });
});

/**
 * [mock-only] Produce requests refused for their topic, which the relay's metadata says exists:
 * the mock answers them with TOPIC_AUTHORIZATION_FAILED (a write the ACLs deny; the nodes of the
 * Apache Kafka lane run no authorizer), or with UNKNOWN_TOPIC_OR_PARTITION (a topic deleted
 * after the relay looked it up; kafkajs retries that one, then gives up).
 */
describe('[mock-only] OutboxRelay and a topic whose produce requests are refused', () => {
  const bed = useRelayTestBed('outbox_denied_topic', 'outbox-denied-topic', 10, {
    kafkaMockOnly: true,
  });

  it.each([
    ['TOPIC_AUTHORIZATION_FAILED', 29, 'grant'],
    ['UNKNOWN_TOPIC_OR_PARTITION', 3, 'create topic'],
  ])(
    'holds the rows while Kafka answers %s, then publishes each once it takes them',
    async (code, errorCode, remedy) => {
      const mock = bed.env.infra.kafkaMock!;
      const topic = await bed.env.createTopic('outbox.refused', 2);
      const keys = await writeLateEvents(bed.dataSource, 5);
      await mock.pushRequestErrors(KafkaApiKey.Produce, errorCode, 10_000);
      const logger = new CapturingLogger();
      const relay = topicRelay(bed, topic, topic, logger);
      relay.start();
      try {
        await waitFor(async () => (relay.faults()[0]?.rounds ?? 0) >= 3, {
          description: 'the refused topic failing 3 rounds',
        });
        expect(relay.faults()).toEqual([
          expect.objectContaining({
            kind: 'topic',
            subject: topic,
            code,
            remedy: expect.stringContaining(remedy),
          }),
        ]);
        expect(await unsentSentDead(bed.dataSource)).toEqual({ unsent: 10, SENT: 0, DEAD: 0 });
        expect(await retryCounts(bed.dataSource)).toEqual([0]);

        await mock.clearRequestErrors(KafkaApiKey.Produce);
        await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 10, {
          description: 'all 10 rows SENT once Kafka takes them',
        });
        expect(relay.faults()).toEqual([]);
      } finally {
        await relay.stop();
        await mock.clearRequestErrors(KafkaApiKey.Produce);
      }
      expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 10 });
      const consumed = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 10);
      expect(new Set(consumed.map((m) => m.eventKey))).toEqual(new Set(keys));
      expect(await messagesOn(bed, topic)).toBe(10);
    },
  );
});

/**
 * [mock-only] One topic of a mixed batch denied: the mock answers produce requests to the
 * broker that leads it with TOPIC_AUTHORIZATION_FAILED, an answer that names no topic.
 */
describe('[mock-only] OutboxRelay and one denied topic among others', () => {
  const bed = useRelayTestBed('outbox_one_denied', 'outbox-one-denied', 10, {
    kafkaMockOnly: true,
  });

  async function leaderOf(topic: string): Promise<number> {
    const admin = bed.env.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0].partitions[0].leader;
    } finally {
      await admin.disconnect();
    }
  }

  it('sends the other topics’ rows and holds only the denied topic’s, then sends those once', async () => {
    const mock = bed.env.infra.kafkaMock!;
    const denied = await bed.env.createTopic('outbox.one.denied', 1);
    const deniedLeader = await leaderOf(denied);
    const allowed = await bed.env.createTopic('outbox.one.allowed', 1);
    await mock.command(`leader ${allowed} 0 ${(deniedLeader % 3) + 1}`);
    expect(await leaderOf(allowed)).not.toBe(deniedLeader);
    const lateKeys = await writeLateEvents(bed.dataSource, 5);
    const otherKeys = await writeParcelEvents(bed.dataSource, new OutboxWriter(), 10, 2, 'ok');
    // Enough refusals for several rounds of the denied topic's rows, then it takes them.
    await mock.pushBrokerErrors(deniedLeader, KafkaApiKey.Produce, 29, 0, 12);
    const logger = new CapturingLogger();
    const relay = topicRelay(bed, denied, allowed, logger);
    relay.start();
    try {
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 20, {
        description: 'the allowed topic’s 20 rows SENT',
      });
      expect(relay.faults()).toEqual([
        expect.objectContaining({ subject: denied, code: 'TOPIC_AUTHORIZATION_FAILED' }),
      ]);
      await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 30, {
        description: 'the denied topic’s 10 rows SENT once it takes them',
      });
      expect(relay.faults()).toEqual([]);
    } finally {
      await relay.stop();
    }
    expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 30 });
    expect(await retryCounts(bed.dataSource)).toEqual([0]);
    // The allowed topic's rows were never held, not even in the round that found the denial.
    expect(logger.lines.filter((l) => l.includes(`topic ${allowed}`))).toEqual([]);
    expect(logger.lines.filter((l) => l.includes(`topic ${denied}`))).toHaveLength(2);
    expect(await messagesOn(bed, denied)).toBe(10);
    const onDenied = await consumeUntil(bed.env.kafka, denied, (m) => m.length >= 10);
    expect(new Set(onDenied.map((m) => m.eventKey))).toEqual(new Set(lateKeys));
    // The mixed send wrote the allowed topic's messages before the split sent them again:
    // duplicates, as after any failed send, which the consumers' inbox absorbs.
    const onAllowed = await consumeUntil(bed.env.kafka, allowed, (m) => m.length >= 20);
    expect(new Set(onAllowed.map((m) => m.eventKey))).toEqual(new Set(otherKeys));
  });
});
