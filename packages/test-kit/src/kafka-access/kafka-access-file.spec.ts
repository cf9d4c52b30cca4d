import { accessFileProblems, KafkaAccessFile } from './kafka-access-file';

const valid: KafkaAccessFile = {
  topics: [{ name: '{TOPIC_PREFIX}a.events', partitions: 3 }],
  principals: {
    'a-service': { allow: [{ topic: '{TOPIC_PREFIX}a.events', operations: ['WRITE'] }] },
  },
};

describe('accessFileProblems', () => {
  it('finds nothing wrong with a well-formed file', () => {
    expect(accessFileProblems(valid)).toEqual([]);
  });

  it('refuses a rule that allows more than reading, writing or describing', () => {
    const file = {
      ...valid,
      principals: { 'a-service': { allow: [{ topic: 'x', operations: ['ALL'] }] } },
    } as unknown as KafkaAccessFile;
    expect(accessFileProblems(file)).toEqual([
      'a-service: operations must be some of READ, WRITE, DESCRIBE',
    ]);
  });

  it('refuses a rule that names both a topic and a group, and a topic without partitions', () => {
    const file = {
      topics: [{ name: 'x' }],
      principals: { p: { allow: [{ topic: 'x', group: 'y', operations: ['READ'] }] } },
    } as unknown as KafkaAccessFile;
    expect(accessFileProblems(file)).toEqual([
      'topic {"name":"x"}: needs a name and partitions >= 1',
      'p: a rule names one topic or one group',
    ]);
  });
});
