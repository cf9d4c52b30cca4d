import {
  ICustomPartitioner,
  Message,
  PartitionerArgs,
  Partitioners,
  RecordMetadata,
} from 'kafkajs';
import { TopicBatch } from './outbox-publisher';

/**
 * Checks a kafkajs send against what the brokers acknowledged. kafkajs 2.2.4 can resolve a send
 * that spans several brokers without writing part of it: its retry keeps, per broker, the
 * acknowledgements of the brokers that answered, and when a failed broker's partitions have
 * moved to one of those (a leader election), the retry finds nothing left to send there and
 * resolves (kafkajs issue 1303, pull request 1798). Seen here when a hung leader came back
 * and answered NOT_LEADER: 33 events marked SENT were on no broker.
 *
 * It wraps the Java-compatible default partitioner to note each message's partition, and
 * finds the messages whose partition no acknowledgement covers.
 */
export class PartitionReceipts {
  private readonly routed = new WeakMap<Message, number>();

  /** For kafkajs's `createPartitioner`: the default partitioner, noting where each message goes. */
  readonly createPartitioner: ICustomPartitioner = () => {
    const choose = Partitioners.DefaultPartitioner();
    return (args: PartitionerArgs) => {
      const partition = choose(args);
      this.routed.set(args.message, partition);
      return partition;
    };
  };

  /** The messages of `batches` (in their order) that no acknowledgement among `acks` covers. */
  unacknowledged(batches: TopicBatch[], acks: RecordMetadata[]): TopicBatch[] {
    const acked = new Set(
      acks.filter((a) => a.errorCode === 0).map((a) => `${a.topicName}:${a.partition}`),
    );
    return batches
      .map(({ topic, messages }) => ({
        topic,
        messages: messages.filter((m) => !acked.has(`${topic}:${this.routed.get(m)}`)),
      }))
      .filter((b) => b.messages.length > 0);
  }
}
