import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { InboxError } from '../src';
import { ensureTopics } from '../src/transport/ensure-topics';

/**
 * The topics the inbox creates at start. The mock cluster cannot create topics (no
 * CreateTopics API): there the refusal is what is checked; on Apache Kafka, the partitions.
 */
describe('The inbox’s retry and dead-letter topics, created at start', () => {
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await startTestEnvironment();
  }, 180_000);

  afterAll(async () => {
    await env?.stop();
  });

  async function partitionsOf(topic: string): Promise<number> {
    const admin = env.kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0].partitions.length;
    } finally {
      await admin.disconnect();
    }
  }

  it('stops the start naming the missing topics when creation is off', async () => {
    const source = await env.createTopic('inbox.create.off', 2);
    const retryTopic = `${source}.retry`;
    const deadLetterTopic = `${source}.dlq`;
    const start = ensureTopics(
      env.kafka,
      { sources: [source], retryTopic, deadLetterTopic },
      { enabled: false },
    );
    await expect(start).rejects.toThrow(InboxError);
    await expect(start).rejects.toThrow(
      `topics ${retryTopic}, ${deadLetterTopic} do not exist (topic creation is off: create them first)`,
    );
  });

  it('gives them the largest partition count among the topics the consumer reads', async () => {
    const narrow = await env.createTopic('inbox.create.narrow', 2);
    const wide = await env.createTopic('inbox.create.wide', 5);
    const retryTopic = `${wide}.retry`;
    const deadLetterTopic = `${wide}.dlq`;
    const start = ensureTopics(
      env.kafka,
      { sources: [narrow, wide], retryTopic, deadLetterTopic },
      { configs: { 'retention.ms': '86400000' } },
    );
    if (env.infra.kafkaMock) {
      await expect(start).rejects.toThrow(/do not exist and could not be created/);
      return;
    }
    await start;
    expect(await partitionsOf(retryTopic)).toBe(5);
    expect(await partitionsOf(deadLetterTopic)).toBe(5);
    const admin = env.kafka.admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        resources: [{ type: 2, name: deadLetterTopic, configNames: ['retention.ms'] }],
        includeSynonyms: false,
      });
      expect(resources[0].configEntries[0]).toMatchObject({ configValue: '86400000' });
    } finally {
      await admin.disconnect();
    }
  });
});
