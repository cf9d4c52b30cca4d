import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApacheKafkaCluster, KAFKA_STARTUP_MS } from '@outbox-inbox/test-kit';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
  SASLOptions,
} from 'kafkajs';
import {
  KafkaOutboxPublisher,
  OutboxKafkaOptions,
  OutboxPublisher,
  OutboxPublisherTuning,
} from '../src';
import { ConfluentOutboxPublisher } from '../src/confluent';
import { runOutboxPublisherContract } from '../src/testing';
import { contractTopicReader } from './contract-topic-reader';

/**
 * Both publishers on a secured cluster of their own (kafka:start --secure: SASL_SSL,
 * SCRAM-SHA-512, nothing allowed without an ACL), as a principal of this file's own that may
 * write the topics named `<prefix>writable.…` (one PREFIXED ACL) and nothing else, so another
 * topic exists but is neither listed to it nor writable. Each publisher
 * reports that topic as denied, not missing (the fault then names the grant to make, not a
 * topic to create), and still publishes the other topics of the send. One node: access is the
 * same on three.
 */
const prefix = `publishers-${randomBytes(4).toString('hex')}.`;
const PRINCIPAL = 'publisher';
/** A topic no ACL lets the principal see or write. */
const DENIED_TOPIC = `${prefix}others`;
// TLS and SCRAM on a shared machine: more room than the plaintext contract specs give.
const tuning: OutboxPublisherTuning = {
  requestTimeoutMs: 5_000,
  producerRetries: 2,
  topicCacheMs: 0,
};

let dir: string;
let cluster: ApacheKafkaCluster;
let admin: ReturnType<Kafka['admin']>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kafka-secured-publishers-'));
  cluster = await ApacheKafkaCluster.start({ nodes: 1, dir, secure: true, users: [PRINCIPAL] });
  admin = new Kafka({
    clientId: 'secured-publishers-admin',
    brokers: cluster.brokers,
    logLevel: logLevel.NOTHING,
    ...cluster.clientSecurity(),
  }).admin();
  await admin.connect();
  await admin.createAcls({
    acl: [
      {
        resourceType: AclResourceTypes.TOPIC,
        resourceName: `${prefix}writable.`,
        resourcePatternType: ResourcePatternTypes.PREFIXED,
        principal: `User:${PRINCIPAL}`,
        host: '*',
        operation: AclOperationTypes.WRITE,
        permissionType: AclPermissionTypes.ALLOW,
      },
    ],
  });
  await admin.createTopics({ topics: [{ topic: DENIED_TOPIC, numPartitions: 1 }] });
}, KAFKA_STARTUP_MS);

afterAll(async () => {
  await admin?.disconnect();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A topic the principal may write (its ACL is on the prefix `<prefix>writable.`). */
async function writableTopic(label: string): Promise<string> {
  const topic = `${prefix}writable.${label}.${randomBytes(4).toString('hex')}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
  return topic;
}

const publishers: Array<[string, (kafka: OutboxKafkaOptions) => OutboxPublisher]> = [
  ['KafkaOutboxPublisher (kafkajs)', (kafka) => new KafkaOutboxPublisher(kafka, tuning)],
  ['ConfluentOutboxPublisher (librdkafka)', (kafka) => new ConfluentOutboxPublisher(kafka, tuning)],
];

for (const [name, create] of publishers) {
  runOutboxPublisherContract(
    `${name}, on a secured cluster as ${PRINCIPAL}`,
    {
      async start() {
        const topics: [string, string] = [await writableTopic('a'), await writableTopic('b')];
        const { ssl, sasl } = cluster.clientSecurity(PRINCIPAL);
        const publisher = create({
          brokers: cluster.brokers,
          clientId: 'secured-publisher-contract',
          logLevel: logLevel.NOTHING,
          ssl,
          // SCRAM with a user name and password: kafkajs's SASLOptions, not a custom Mechanism.
          sasl: sasl as SASLOptions,
        });
        return { publisher, topics };
      },
      received: (topic, count) =>
        contractTopicReader(cluster.brokers, cluster.clientSecurity())(topic, count),
      deniedTopic: async () => DENIED_TOPIC,
      stop: ({ publisher }) => publisher.disconnect(),
    },
    ['denied-topic'],
  );
}
