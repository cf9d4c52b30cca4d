import { topicsToCreate } from './ensure-topics';

const topics = {
  sources: ['shop.parcel.events', 'shop.crate.events'],
  retryTopic: 'packer.retry',
  deadLetterTopic: 'packer.dlq',
};
const sourcePartitions = new Map([
  ['shop.parcel.events', 12],
  ['shop.crate.events', 3],
]);

describe('topicsToCreate', () => {
  it('gives the retry and dead-letter topics the largest partition count among the sources', () => {
    expect(topicsToCreate(['packer.retry', 'packer.dlq'], topics, sourcePartitions, {})).toEqual([
      { topic: 'packer.retry', numPartitions: 12, replicationFactor: -1 },
      { topic: 'packer.dlq', numPartitions: 12, replicationFactor: -1 },
    ]);
  });

  it('leaves a missing source to the broker’s defaults, and 1 partition when no source exists', () => {
    expect(topicsToCreate(['shop.crate.events', 'packer.dlq'], topics, new Map(), {})).toEqual([
      { topic: 'shop.crate.events', numPartitions: -1, replicationFactor: -1 },
      { topic: 'packer.dlq', numPartitions: 1, replicationFactor: -1 },
    ]);
  });

  it('takes partitions, replication factor and configs from the options', () => {
    expect(
      topicsToCreate(['packer.dlq'], topics, sourcePartitions, {
        partitions: 6,
        replicationFactor: 3,
        configs: { 'retention.ms': '1209600000', 'min.insync.replicas': '2' },
      }),
    ).toEqual([
      {
        topic: 'packer.dlq',
        numPartitions: 6,
        replicationFactor: 3,
        configEntries: [
          { name: 'retention.ms', value: '1209600000' },
          { name: 'min.insync.replicas', value: '2' },
        ],
      },
    ]);
  });
});
