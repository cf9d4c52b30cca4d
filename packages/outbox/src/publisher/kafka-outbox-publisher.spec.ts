import {
  ICustomPartitioner,
  Kafka,
  KafkaJSProtocolError,
  Message,
  PartitionMetadata,
} from 'kafkajs';
import { KafkaOutboxPublisher } from './kafka-outbox-publisher';
import { OutboxError } from '../outbox.errors';

const partitionMetadata: PartitionMetadata[] = [0, 1, 2].map((partitionId) => ({
  partitionId,
  leader: partitionId,
  partitionErrorCode: 0,
  replicas: [0, 1, 2],
  isr: [0, 1, 2],
}));

/**
 * What one send of a fake producer does: fail, acknowledge every partition it wrote to
 * (undefined), or resolve with no acknowledgement for some partitions, as kafkajs does when a
 * retry skips a broker that took over a failed broker's partitions.
 */
type Outcome = Error | undefined | { unacknowledged: number[] };

/**
 * A kafkajs client whose producers route each message with the partitioner they are given, as
 * kafkajs does, and answer each send with the next of `outcomes`.
 */
function fakeClient(outcomes: Outcome[]) {
  const producers: Array<{ id: number; sends: number; sent: string[][] }> = [];
  const client = {
    producer: (config: { createPartitioner: ICustomPartitioner }) => {
      const partitioner = config.createPartitioner();
      const producer = { id: producers.length + 1, sends: 0, sent: [] as string[][] };
      producers.push(producer);
      return {
        events: { DISCONNECT: 'disconnect' },
        on: () => undefined,
        connect: async () => undefined,
        disconnect: async () => undefined,
        sendBatch: async ({
          topicMessages,
        }: {
          topicMessages: Array<{ topic: string; messages: Message[] }>;
        }) => {
          producer.sends += 1;
          producer.sent.push(topicMessages.flatMap((t) => t.messages.map((m) => String(m.key))));
          const outcome = outcomes.shift();
          if (outcome instanceof Error) throw outcome;
          const partitions = new Set(
            topicMessages.flatMap(({ topic, messages }) =>
              messages.map(
                (message) => `${topic}:${partitioner({ topic, partitionMetadata, message })}`,
              ),
            ),
          );
          return [...partitions]
            .map((tp) => tp.split(':'))
            .filter(([, p]) => !outcome?.unacknowledged.includes(Number(p)))
            .map(([topicName, p]) => ({ topicName, partition: Number(p), errorCode: 0 }));
        },
      };
    },
    admin: () => ({ events: { DISCONNECT: 'disconnect' }, on: () => undefined }),
  };
  return { client: client as unknown as Kafka, producers };
}

const batch = [{ topic: 't', messages: [{ key: 'k', value: '{}', headers: {} }] }];
const tuning = { requestTimeoutMs: 1_000, producerRetries: 1, topicCacheMs: 1_000 };

/** The error kafkajs gives for an error the broker answered (its type and code). */
function protocolError(type: string, code: number): Error {
  return new KafkaJSProtocolError({ type, code, message: type, retriable: false } as never);
}

describe('KafkaOutboxPublisher', () => {
  it('keeps its producer through other failures', async () => {
    const { client, producers } = fakeClient([protocolError('REQUEST_TIMED_OUT', 7), undefined]);
    const publisher = new KafkaOutboxPublisher({ client }, tuning);
    await expect(publisher.publish(batch)).rejects.toThrow(KafkaJSProtocolError);
    await publisher.publish(batch);
    expect(producers.map((p) => p.sends)).toEqual([2]);
  });

  it('tells a topic the ACLs hide (TOPIC_AUTHORIZATION_FAILED by name) from one that is missing', async () => {
    // A principal without DESCRIBE on a topic does not see it listed; asked by name, the
    // broker says whether it is denied or unknown.
    const { client } = fakeClient([]);
    const admin = {
      events: { DISCONNECT: 'disconnect' },
      on: () => undefined,
      connect: async () => undefined,
      listTopics: async () => ['listed'],
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
        if (topics[0] === 'denied') throw protocolError('TOPIC_AUTHORIZATION_FAILED', 29);
        throw protocolError('UNKNOWN_TOPIC_OR_PARTITION', 3);
      },
    };
    (client as unknown as { admin: () => typeof admin }).admin = () => admin;
    const publisher = new KafkaOutboxPublisher({ client }, tuning);
    expect(await publisher.missingTopics(['listed', 'denied', 'absent'])).toEqual(['absent']);
  });

  describe('when kafkajs resolves a send without an acknowledgement for every partition', () => {
    // Keys spread over the three partitions of the fake topic.
    const keys = Array.from({ length: 12 }, (_, i) => `aggregate-${i}`);
    const wide = [{ topic: 't', messages: keys.map((key) => ({ key, value: '{}', headers: {} })) }];

    it('sends again only the messages of the unacknowledged partitions, then resolves', async () => {
      const { client, producers } = fakeClient([{ unacknowledged: [1] }, undefined]);
      const publisher = new KafkaOutboxPublisher({ client }, tuning);
      await publisher.publish(wide);
      const [first, again] = producers[0].sent;
      expect(first).toEqual(keys);
      expect(again.length).toBeGreaterThan(0);
      expect(again.length).toBeLessThan(keys.length);
      expect(again).toEqual(keys.filter((k) => again.includes(k)));
    });

    it('fails with OUTBOX_SEND_INCOMPLETE once producerRetries resends did not help', async () => {
      const { client, producers } = fakeClient([{ unacknowledged: [0] }, { unacknowledged: [0] }]);
      const publisher = new KafkaOutboxPublisher({ client }, tuning);
      const failed = await publisher.publish(wide).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(OutboxError);
      expect(failed).toMatchObject({ code: 'OUTBOX_SEND_INCOMPLETE' });
      expect(producers[0].sends).toBe(tuning.producerRetries + 1);
    });
  });
});
