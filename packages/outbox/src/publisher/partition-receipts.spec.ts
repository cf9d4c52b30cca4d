import { PartitionMetadata, RecordMetadata } from 'kafkajs';
import { OutboxMessage } from './outbox-publisher';
import { PartitionReceipts } from './partition-receipts';

const partitionMetadata: PartitionMetadata[] = [0, 1, 2, 3, 4, 5].map((partitionId) => ({
  partitionId,
  leader: partitionId % 3,
  partitionErrorCode: 0,
  replicas: [0, 1, 2],
  isr: [0, 1, 2],
}));
const message = (key: string): OutboxMessage => ({ key, value: `{"k":"${key}"}`, headers: {} });
const ack = (topicName: string, partition: number, errorCode = 0): RecordMetadata => ({
  topicName,
  partition,
  errorCode,
});

describe('PartitionReceipts: which messages of a resolved send no broker acknowledged', () => {
  const receipts = new PartitionReceipts();
  const partitioner = receipts.createPartitioner();
  const messages = Array.from({ length: 24 }, (_, i) => message(`order-${i}`));
  const partitionOf = new Map(
    messages.map((m) => [m, partitioner({ topic: 'orders', partitionMetadata, message: m })]),
  );

  it('routes as the Java-compatible default partitioner, the same key to the same partition', () => {
    const again = receipts.createPartitioner();
    for (const m of messages)
      expect(again({ topic: 'orders', partitionMetadata, message: message(m.key) })).toBe(
        partitionOf.get(m),
      );
    expect(new Set(partitionOf.values()).size).toBeGreaterThan(1);
  });

  it('finds nothing missing when every partition written to was acknowledged', () => {
    const acks = [...new Set(partitionOf.values())].map((p) => ack('orders', p));
    expect(receipts.unacknowledged([{ topic: 'orders', messages }], acks)).toEqual([]);
  });

  it('returns, in order, the messages of partitions without an acknowledgement', () => {
    const [lost, ...kept] = [...new Set(partitionOf.values())];
    const acks = kept.map((p) => ack('orders', p)).concat(ack('other-topic', lost));
    expect(receipts.unacknowledged([{ topic: 'orders', messages }], acks)).toEqual([
      { topic: 'orders', messages: messages.filter((m) => partitionOf.get(m) === lost) },
    ]);
  });

  it('counts an acknowledgement with an error, and a message never routed, as missing', () => {
    const acks = [...new Set(partitionOf.values())].map((p) => ack('orders', p, 6));
    const unrouted = message('never-partitioned');
    expect(receipts.unacknowledged([{ topic: 'orders', messages: [unrouted] }], acks)).toEqual([
      { topic: 'orders', messages: [unrouted] },
    ]);
    expect(receipts.unacknowledged([{ topic: 'orders', messages }], acks)).toEqual([
      { topic: 'orders', messages },
    ]);
  });
});
