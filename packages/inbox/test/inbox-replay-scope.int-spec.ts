import { ReplayResult } from '@outbox-inbox/inbox';
import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { runScript } from '../../../test/support/run-script';
import { committedTotal, topicSize } from './fixtures/kafka-reads';
import { InboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

/**
 * Two consumer groups read one topic; one of them dead-letters an event. Its replay goes to
 * that consumer's own retry topic: the consumer applies it once, and the other group gets
 * nothing new.
 */
describe('Replaying a dead letter', () => {
  const bed = useInboxTestBed('inbox_replay_scope');

  /** The effects consumer `instance` wrote of the parcels of one test (ids `${test}-n`). */
  async function effects(instance: string, test: string): Promise<string[]> {
    const rows = (await bed.dataSource.query(
      'SELECT event_key FROM t_test_effect WHERE instance = ? AND aggregate_id LIKE ? ORDER BY event_key',
      [instance, `${test}-%`],
    )) as Array<{ event_key: string }>;
    return rows.map((r) => r.event_key);
  }

  async function inboxRows(consumer: string): Promise<unknown[]> {
    return (await bed.dataSource.query(
      `SELECT event_key, outcome, duplicate_count FROM t_inbox WHERE consumer = ? ORDER BY event_key`,
      [consumer],
    )) as unknown[];
  }

  async function replayRecords(consumer: string): Promise<number> {
    const rows = (await bed.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_inbox_dlq_replay WHERE consumer = ?',
      [consumer],
    )) as Array<{ n: string }>;
    return Number(rows[0].n);
  }

  /** One consumer of `topic`, with its own dead-letter and retry topics, its /inbox on HTTP. */
  async function consumerOf(topic: string, name: string) {
    const consumer = `c-${name}-${topic}`;
    const deadLetterTopic = await bed.env.createTopic(`inbox.scope.${name}.dlq`, 1);
    const retryTopic = await bed.retryTopicOf(consumer);
    const behaviour = new TestBehaviour();
    behaviour.instance = name;
    const app = await bed.startApp({
      consumer,
      topics: [topic],
      deadLetterTopic,
      retryTopic,
      behaviour,
      http: true,
    });
    return { consumer, deadLetterTopic, retryTopic, app, url: await app.app.getUrl() };
  }

  async function replay(url: string, body: object): Promise<[number, ReplayResult]> {
    const response = await fetch(`${url}/inbox/dead-letters/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return [response.status, (await response.json()) as ReplayResult];
  }

  /** Sends `rejected` and `passing`; `a` dead-letters `rejected`, `b` applies both. */
  async function deadLetteredByOneGroup(name: string) {
    const topic = await bed.env.createTopic(`inbox.scope.${name}`, 1);
    const a = await consumerOf(topic, 'a');
    let b: Awaited<ReturnType<typeof consumerOf>> | undefined;
    try {
      b = await consumerOf(topic, 'b');
      const rejected = parcelEvent('registered', `${name}-1`, 1);
      const passing = parcelEvent('registered', `${name}-2`, 1);
      a.app.behaviour.rejected.add(rejected.eventKey);
      await bed.producer.send({ topic, messages: [rejected, passing].map(toMessage) });
      await waitFor(async () => (await topicSize(bed.env.kafka, a.deadLetterTopic)) === 1, {
        description: 'a dead-lettered the rejected event',
      });
      await waitFor(async () => (await committedTotal(bed.env.kafka, b!.consumer, topic)) === 2, {
        description: 'b took both events in',
      });
      expect(await effects('a', name)).toEqual([passing.eventKey]);
      expect(await effects('b', name)).toEqual([rejected.eventKey, passing.eventKey].sort());
      return { topic, a, b, rejected, passing };
    } catch (error) {
      await b?.app.close();
      await a.app.close();
      throw error;
    }
  }

  async function closeAll(...apps: InboxTestApp[]): Promise<void> {
    for (const app of apps) await app.close();
  }

  it('reaches only the consumer that dead-lettered it: it applies the event once, the other group sees nothing new', async () => {
    const name = 'only';
    const { topic, a, b, rejected } = await deadLetteredByOneGroup(name);
    try {
      const bBefore = {
        rows: await inboxRows(b.consumer),
        effects: await effects('b', name),
        attempts: new Map(b.app.behaviour.attempts),
      };

      a.app.behaviour.rejected.delete(rejected.eventKey); // the fix
      const [status, result] = await replay(a.url, { all: true });
      expect(status).toBe(200);
      expect(result).toEqual({
        matched: 1,
        replayed: [{ partition: 0, offset: '0', targetTopic: a.retryTopic }],
        skippedAlreadyReplayed: 0,
        skippedNotOwnTopic: [],
      });
      await waitFor(async () => (await effects('a', name)).includes(rejected.eventKey), {
        description: 'a applied the replayed event',
      });
      expect((await effects('a', name)).filter((k) => k === rejected.eventKey)).toHaveLength(1);
      expect(await topicSize(bed.env.kafka, topic)).toBe(2); // nothing went back to the shared topic
      expect(await topicSize(bed.env.kafka, a.retryTopic)).toBe(1);
      await waitFor(
        async () => (await committedTotal(bed.env.kafka, a.consumer, a.retryTopic)) === 1,
        { description: 'a acknowledged the replay on its retry topic' },
      );

      // b has taken in everything up to a later event: anything replayed to it would be in.
      const later = parcelEvent('registered', 'only-3', 1);
      await bed.producer.send({ topic, messages: [toMessage(later)] });
      await waitFor(async () => (await effects('b', name)).includes(later.eventKey), {
        description: 'b applied the later event',
      });
      expect(await committedTotal(bed.env.kafka, b.consumer, a.retryTopic)).toBe(0);
      expect(await effects('b', name)).toEqual([...bBefore.effects, later.eventKey].sort());
      expect(b.app.behaviour.attempts).toEqual(new Map([...bBefore.attempts, [later.eventKey, 1]]));
      expect(await inboxRows(b.consumer)).toEqual(
        [
          ...(bBefore.rows as Array<{ event_key: string }>),
          { event_key: later.eventKey, outcome: 'applied', duplicate_count: 0 },
        ].sort((x, y) => x.event_key.localeCompare(y.event_key)),
      );
      expect(b.app.metrics.outcomes.duplicate).toBe(0);
    } finally {
      await closeAll(b.app, a.app);
    }
  });

  it('on a dry run, from the CLI or over HTTP, lists what it would replay and changes nothing', async () => {
    const name = 'dry';
    const { topic, a, b, rejected } = await deadLetteredByOneGroup(name);
    try {
      const aRows = await inboxRows(a.consumer);
      const expected = {
        matched: 1,
        replayed: [],
        skippedAlreadyReplayed: 0,
        skippedNotOwnTopic: [],
        dryRun: true,
        wouldReplay: [{ partition: 0, offset: '0', targetTopic: a.retryTopic }],
      };
      const run = await runScript('scripts/ops.ts', [
        'dlq:replay',
        '--service',
        a.url,
        '--all',
        '--dry-run',
        '--json',
      ]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(expected);
      expect(await replay(a.url, { eventType: 'ParcelRegistered', dryRun: true })).toEqual([
        200,
        expected,
      ]);

      expect(await topicSize(bed.env.kafka, a.retryTopic)).toBe(0);
      expect(await topicSize(bed.env.kafka, topic)).toBe(2);
      expect(await topicSize(bed.env.kafka, a.deadLetterTopic)).toBe(1);
      expect(await replayRecords(a.consumer)).toBe(0);
      expect(await inboxRows(a.consumer)).toEqual(aRows);
      expect(await effects('a', name)).not.toContain(rejected.eventKey);
      // Still there to replay for real: not marked as replayed.
      expect((await a.app.deadLetters.list())[0].replayedAt).toBeNull();
    } finally {
      await closeAll(b.app, a.app);
    }
  });
});
