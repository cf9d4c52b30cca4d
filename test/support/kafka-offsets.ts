import { Kafka } from 'kafkajs';

/** True when `groupId` has committed, on every partition of `topic`, up to its end. */
export async function caughtUp(kafka: Kafka, groupId: string, topic: string): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return ends.every((end) => {
      const mine = committed.partitions.find((p) => p.partition === end.partition);
      return BigInt(end.high) === BigInt(end.low) || BigInt(mine?.offset ?? -1) >= BigInt(end.high);
    });
  } finally {
    await admin.disconnect();
  }
}
