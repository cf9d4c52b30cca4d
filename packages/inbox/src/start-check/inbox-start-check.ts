import { unreadableTables } from '@outbox-inbox/database';
import { missingTopics } from '@outbox-inbox/messaging';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';

/** The inbox's own tables (InboxMigrations). */
const INBOX_TABLES = [
  't_inbox',
  't_inbox_version',
  't_inbox_parked',
  't_inbox_dlq_replay',
  't_inbox_prune',
];

/**
 * The opt-in start-up check (`checkOnStart`), run by the transport before the consumer
 * starts: each inbox table answers a query and the topics it reads exist (its retry and
 * dead-letter topics too when `topicCreation.enabled` is false; otherwise they are created at
 * start). Anything missing fails the start with one InboxError naming each thing and what to do.
 */
export async function checkInboxOnStart(
  options: ResolvedInboxOptions,
  dataSource: DataSource,
  kafka: Kafka,
): Promise<void> {
  if (!options.checkOnStart) return;
  const problems = (await unreadableTables(dataSource, INBOX_TABLES)).map(
    (t) => `table ${t.table} cannot be read (${t.error}): run InboxMigrations`,
  );
  const topics = [
    ...options.topics,
    ...(options.topicCreation.enabled === false
      ? [options.retryTopic, options.deadLetterTopic]
      : []),
  ];
  for (const topic of await missingTopics(kafka, topics)) {
    problems.push(`topic ${topic} does not exist: create it`);
  }
  if (problems.length > 0) {
    throw new InboxError(
      'START_CHECK_FAILED',
      `InboxModule start check failed for consumer ${options.consumer}: ${problems.join('; ')}`,
    );
  }
}
