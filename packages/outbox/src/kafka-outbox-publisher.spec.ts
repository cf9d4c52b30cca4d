import { Kafka, KafkaJSProtocolError } from 'kafkajs';
import { KafkaOutboxPublisher } from './kafka-outbox-publisher';

/** A kafkajs client whose producers answer each send with the next of `outcomes`. */
function fakeClient(outcomes: Array<Error | undefined>) {
  const producers: Array<{ id: number; sends: number }> = [];
  const client = {
    producer: () => {
      const producer = { id: producers.length + 1, sends: 0 };
      producers.push(producer);
      return {
        events: { DISCONNECT: 'disconnect' },
        on: () => undefined,
        connect: async () => undefined,
        disconnect: async () => undefined,
        sendBatch: async () => {
          producer.sends += 1;
          const outcome = outcomes.shift();
          if (outcome) throw outcome;
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
  it.each([
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45],
    ['INVALID_PRODUCER_EPOCH', 47],
    ['UNKNOWN_PRODUCER_ID', 59],
  ])(
    'when the broker refuses the idempotent session (%s), sends the next batch with a new producer',
    async (type, code) => {
      const { client, producers } = fakeClient([protocolError(type, code), undefined]);
      const publisher = new KafkaOutboxPublisher({ client }, tuning);
      await expect(publisher.publish(batch)).rejects.toThrow(KafkaJSProtocolError);
      await publisher.publish(batch);
      expect(producers.map((p) => p.sends)).toEqual([1, 1]);
    },
  );

  it('keeps its producer through other failures', async () => {
    const { client, producers } = fakeClient([protocolError('REQUEST_TIMED_OUT', 7), undefined]);
    const publisher = new KafkaOutboxPublisher({ client }, tuning);
    await expect(publisher.publish(batch)).rejects.toThrow(KafkaJSProtocolError);
    await publisher.publish(batch);
    expect(producers.map((p) => p.sends)).toEqual([2]);
  });
});
