import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';

/** Every message value on `topic`, read up to its end, in offset order (one partition). */
export async function readTopicValues(brokers: string[], topic: string): Promise<string[]> {
  const kafka = new Kafka(
    testKafkaConfig({ brokers, clientId: 'lost-reply-reader', logLevel: logLevel.NOTHING }),
  );
  const admin = kafka.admin();
  await admin.connect();
  const [{ high }] = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const consumer = kafka.consumer({ groupId: `lost-reply-${Date.now()}`, maxWaitTimeInMs: 100 });
  const values: string[] = [];
  let last = -1;
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        values.push(String(message.value));
        last = Number(message.offset);
      },
    });
    await waitFor(() => last >= Number(high) - 1, { description: `${topic} read to ${high}` });
  } finally {
    await consumer.disconnect();
  }
  return values;
}
