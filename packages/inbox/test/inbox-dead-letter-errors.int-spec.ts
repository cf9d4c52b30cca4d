import { KafkaApiKey, parcelEvent, toMessage } from '@outbox-inbox/test-kit';
import { waitFor } from '@outbox-inbox/test-kit';
import { topicSize } from './fixtures/kafka-reads';
import { useInboxTestBed } from './fixtures/inbox-test-app';

/** Kafka's TOPIC_AUTHORIZATION_FAILED: a broker answer no retry can change. */
const TOPIC_AUTHORIZATION_FAILED = 29;

/**
 * [mock-only] The broker refuses the dead-letter produce with TOPIC_AUTHORIZATION_FAILED, pushed
 * into the mock's request handling. The Apache Kafka nodes here run no authorizer, so no real
 * refusal exists to provoke yet; its counterpart on a real cluster is a gap that
 * docs/development.md names.
 */
describe('[mock-only] Inbox dead-letter publish errors', () => {
  const bed = useInboxTestBed('inbox_dead_letter_errors', { kafkaMockOnly: true });

  it('pauses the partition on a refused dead letter, names the cause, and goes on once the broker takes it', async () => {
    const mock = bed.env.infra.kafkaMock!;
    const topic = await bed.env.createTopic('inbox.dlq-refused', 1);
    const deadLetterTopic = await bed.env.createTopic('inbox.dlq-refused.dlq', 1);
    const consumer = `c-${topic}`;
    const next = parcelEvent('registered', 'after-refused', 1);
    await bed.producer.send({
      topic,
      messages: [{ key: 'poison', value: '{not json' }, toMessage(next)],
    });
    // From here the only producer is the inbox's dead-letter publisher: its next three
    // produce requests are refused as an ACL would refuse them.
    await mock.pushRequestErrors(KafkaApiKey.Produce, TOPIC_AUTHORIZATION_FAILED, 3);
    const app = await bed.startApp({
      consumer,
      topics: [topic],
      deadLetterTopic,
      inbox: { blockedBackoff: { baseDelayMs: 200, maxDelayMs: 400 } },
    });
    try {
      await waitFor(() => app.metrics.deadLetterRejections >= 1, {
        description: 'a refused dead letter counted',
      });
      expect(app.metrics.blocks.list()).toEqual([
        expect.objectContaining({
          topic,
          partition: 0,
          lastError: expect.stringContaining('TOPIC_AUTHORIZATION_FAILED') as string,
        }),
      ]);
      // Paused, not skipped: the good event after the poison waits, the offset stays put.
      const effects = async () =>
        Number(
          (
            (await bed.dataSource.query(
              'SELECT COUNT(*) AS n FROM t_test_effect WHERE event_key = ?',
              [next.eventKey],
            )) as Array<{ n: string }>
          )[0].n,
        );
      expect(await effects()).toBe(0);

      // The refusals end (the ACL is fixed): the poison is dead-lettered once, the next event applied.
      await waitFor(async () => (await effects()) === 1, {
        description: 'the event after the poison applied',
      });
      expect(await topicSize(bed.env.kafka, deadLetterTopic)).toBe(1);
      expect(app.metrics.deadLetterRejections).toBe(3);
      expect(app.metrics.deadLettered).toBe(1);
      expect(app.metrics.blocks.list()).toEqual([]);
    } finally {
      await mock.clearRequestErrors(KafkaApiKey.Produce);
      await app.close();
    }
  });
});
