import { randomBytes } from 'node:crypto';
import { ApacheKafkaCluster, waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { KafkaOutboxPublisher, TopicBatch } from '@outbox-inbox/outbox';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { threeNodeCluster } from './support/broker-fault-bed';
import { eventKeysOnTopic } from './support/topic-events';

/** Messages per send, spread over the topic's two partitions. */
const MESSAGES = 24;
/** Longer than the hang below: the send to the hung leader is still waiting when it wakes. */
const REQUEST_TIMEOUT_MS = 90_000;

let cluster: ApacheKafkaCluster;
let ownsCluster = false;

beforeAll(async () => {
  ({ cluster, owned: ownsCluster } = await threeNodeCluster());
}, 10 * 60_000);

afterAll(async () => {
  for (const id of cluster?.nodeIds ?? []) cluster.resumeNode(id);
  if (ownsCluster) await cluster?.stop();
});

/** One send: resolve it (`send`) and report the keys it was given. */
type Send = (batches: TopicBatch[]) => Promise<unknown>;

/**
 * A send spanning two brokers while one of them hangs: partition 0 led by A (replicas A, B, C),
 * partition 1 by B (B, A, C). A is paused (SIGSTOP) and the send goes out: B acknowledges
 * partition 1 once A is fenced and out of its ISR, and partition 0 moves to B. Then A wakes
 * and answers its stale request NOT_LEADER, and the send is retried with partition 0 on B,
 * which has already answered. Returns the keys the send was given and how many of those the
 * topic lacks once it resolved.
 */
async function sendWhileLeaderHangs(name: string, send: Send): Promise<{ missing: string[] }> {
  const topic = `leader-moved.${randomBytes(3).toString('hex')}.${name}`;
  const [a, b, c] = cluster.nodeIds;
  await cluster.withAdmin((admin) =>
    admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          replicaAssignment: [
            { partition: 0, replicas: [a, b, c] },
            { partition: 1, replicas: [b, a, c] },
          ],
        },
      ],
    }),
  );
  await cluster.waitForFullIsr(topic);
  const run = randomBytes(2).toString('hex');
  const batch = (tag: string): TopicBatch => ({
    topic,
    messages: Array.from({ length: MESSAGES }, (_, i) => {
      const eventKey = `Sent:${run}-${tag}-${i}:1`;
      return { key: `${run}-${tag}-${i}`, value: JSON.stringify({ eventKey }), headers: {} };
    }),
  });
  // Connected, with metadata, before the fault.
  await send([batch('warm-up')]);

  const others = cluster.brokers.filter((_, i) => cluster.nodeIds[i] !== a);
  const partitionOneEnd = () =>
    cluster.withAdmin(async (admin) => {
      const ends = await admin.fetchTopicOffsets(topic);
      return Number(ends.find((e) => e.partition === 1)!.high);
    }, others);
  const beforeHang = await partitionOneEnd();
  cluster.pauseNode(a);
  try {
    const hung = batch('hung');
    const sent = send([hung]);
    sent.catch(() => undefined);
    // B leads partition 0 now, and has acknowledged its own part of the send (partition 1 grew).
    await waitFor(
      async () =>
        (await cluster.withAdmin(async (admin) => {
          const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
          return topics[0].partitions.find((p) => p.partitionId === 0)!.leader === b;
        }, others)) && (await partitionOneEnd()) > beforeHang,
      { timeoutMs: 120_000, intervalMs: 500, description: `node ${b} leads both partitions` },
    );
    cluster.resumeNode(a);
    await sent;
    const onTopic = new Set(await eventKeysOnTopic(cluster.brokers, topic));
    const keys = hung.messages.map((m) => (JSON.parse(m.value) as { eventKey: string }).eventKey);
    return { missing: keys.filter((key) => !onTopic.has(key)) };
  } finally {
    cluster.resumeNode(a);
    await cluster.waitForFullIsr(topic);
  }
}

describe('a send across two brokers, one of which hangs and loses its partitions mid-send', () => {
  it('kafkajs alone resolves it with the hung leader’s partition never written', async () => {
    const kafka = new Kafka(
      testKafkaConfig({
        clientId: 'plain-kafkajs',
        brokers: cluster.brokers,
        logLevel: logLevel.NOTHING,
        requestTimeout: REQUEST_TIMEOUT_MS,
      }),
    );
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    try {
      const { missing } = await sendWhileLeaderHangs('kafkajs', (batches) =>
        producer.sendBatch({ acks: -1, timeout: REQUEST_TIMEOUT_MS, topicMessages: batches }),
      );
      process.stdout.write(
        `kafkajs alone: ${missing.length} of ${MESSAGES} acknowledged messages missing\n`,
      );
      // kafkajs issue 1303: what this test guards against. If kafkajs is ever fixed, this
      // fails, and the publisher's check may go.
      expect(missing.length).toBeGreaterThan(0);
    } finally {
      await producer.disconnect();
    }
  }, 300_000);

  it('the relay’s publisher resolves only once every message is on the topic', async () => {
    const publisher = new KafkaOutboxPublisher(
      { brokers: cluster.brokers, clientId: 'relay-publisher', logLevel: logLevel.NOTHING },
      { requestTimeoutMs: REQUEST_TIMEOUT_MS, producerRetries: 3, topicCacheMs: 60_000 },
    );
    try {
      const { missing } = await sendWhileLeaderHangs('publisher', (batches) =>
        publisher.publish(batches),
      );
      process.stdout.write(`KafkaOutboxPublisher: ${missing.length} of ${MESSAGES} missing\n`);
      expect(missing).toEqual([]);
    } finally {
      await publisher.disconnect();
    }
  }, 300_000);
});
