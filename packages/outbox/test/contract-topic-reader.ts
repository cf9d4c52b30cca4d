import { testKafkaConfig } from '@outbox-inbox/test-kit';
import { Kafka, KafkaConfig, logLevel } from 'kafkajs';
import { ReceivedMessage } from '../src/testing';

/**
 * Reads a topic from its beginning until `count` messages arrived (the contract fixtures'
 * `received`), on a secured cluster with `security`'s ssl and sasl.
 */
export function contractTopicReader(
  brokers: string[],
  security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {},
): (topic: string, count: number) => Promise<ReceivedMessage[]> {
  return async (topic, count) => {
    const kafka = new Kafka({
      ...testKafkaConfig({ brokers, clientId: 'contract-reader', logLevel: logLevel.NOTHING }),
      ...security,
    });
    const consumer = kafka.consumer({ groupId: `contract-${topic}`, maxWaitTimeInMs: 100 });
    const messages: ReceivedMessage[] = [];
    let done!: () => void;
    const enough = new Promise<void>((resolve) => (done = resolve));
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(message.headers ?? {})) {
            headers[name] = String(value);
          }
          messages.push({ key: String(message.key), value: String(message.value), headers });
          if (messages.length >= count) done();
        },
      });
      await Promise.race([
        enough,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`${messages.length} of ${count} on ${topic}`)), 30_000),
        ),
      ]);
      return messages;
    } finally {
      await consumer.disconnect();
    }
  };
}
