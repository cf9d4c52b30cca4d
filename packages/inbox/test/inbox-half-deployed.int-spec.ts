import { Logger } from '@nestjs/common';
import { createDatabaseUser, parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { InboxMigrations, probeInboxSchema } from '../src';
import { committedTotal, topicSize } from './fixtures/kafka-reads';
import { InboxTestApp, useInboxTestBed } from './fixtures/inbox-test-app';

const ENGINES = ['mysql', 'postgres'] as const;

/** Three parcels, two versions each: six events over the topic's partitions. */
const sixEvents = (prefix: string) =>
  ['a', 'b', 'c'].flatMap((p) => [
    parcelEvent('registered', `${prefix}-${p}`, 1),
    parcelEvent('shipped', `${prefix}-${p}`, 2),
  ]);

/** The warnings the consumer's transport logged (the test app prints errors only). */
const warnings = () => jest.spyOn(Logger.prototype, 'warn');

/** What the consumer shows while it waits: paused partitions for a deployment fault, nothing else. */
async function expectWaiting(
  app: InboxTestApp,
  subject: string | RegExp,
  warned: jest.SpyInstance,
  remedy: RegExp,
) {
  await waitFor(() => app.metrics.blocks.list().some((b) => b.rounds >= 3), {
    description: 'a partition retried three rounds',
  });
  const blocked = app.metrics.blocks.list();
  expect(blocked.length).toBeGreaterThan(0);
  for (const block of blocked) {
    expect(block).toMatchObject({ cause: 'deployment', subject: expect.stringMatching(subject) });
  }
  // Once per thing missing, not once per partition or round.
  expect(app.metrics.deploymentFaults).toBe(1);
  const lines = warned.mock.calls.map(([line]) => String(line));
  expect(lines.filter((l) => l.startsWith('the deployment is not complete'))).toEqual([
    expect.stringMatching(remedy),
  ]);
  expect(app.metrics.deadLettered).toBe(0);
  expect(app.metrics.outcomes.applied).toBe(0);
  // A batch that meets it pauses as a whole: no retries in place, no message-by-message fallback.
  expect(app.metrics.batchFallbacks).toBe(0);
  expect(app.metrics.retries).toBe(0);
}

/**
 * A consumer started before its deployment is complete: the inbox's migrations not run, or its
 * database user without the grants. It takes in nothing, dead-letters nothing and commits no
 * offset; once the migrations or the GRANT are in place, every event is applied once.
 */
describe.each(ENGINES)('Inbox consumer on a half-done deployment (%s)', (engine) => {
  describe('with the inbox tables not migrated yet', () => {
    const bed = useInboxTestBed(`inbox_half_${engine}`, { engine, inboxTables: false });

    it.each([
      ['one message per transaction', 1],
      ['batched mode', 20],
    ])(
      'in %s: pauses, never dead-letters, and applies every event once after the migrations ran',
      async (_mode, batchSize) => {
        const { topic, options } = await bed.channel(`inbox.half${batchSize}.${engine}`, 2);
        const prefix = `half${batchSize}-${engine}`;
        const sent = sixEvents(prefix);
        // Each case starts before the migrations: the one before ran them.
        for (const _ of InboxMigrations) await bed.dataSource.undoLastMigration();
        await bed.producer.send({ topic, messages: sent.map(toMessage) });
        expect(await probeInboxSchema(bed.dataSource)).toEqual(
          expect.arrayContaining([expect.objectContaining({ kind: 'table', subject: 't_inbox' })]),
        );
        const warned = warnings();
        const app = await bed.startApp({ ...options, inbox: { batchSize } });
        try {
          await expectWaiting(
            app,
            /^t_inbox/,
            warned,
            /t_inbox.* is missing .*run InboxMigrations/,
          );
          expect(await committedTotal(bed.env.kafka, options.consumer, topic)).toBe(0);
          expect(await topicSize(bed.env.kafka, options.deadLetterTopic)).toBe(0);

          await bed.dataSource.runMigrations({ transaction: 'each' });
          expect(await probeInboxSchema(bed.dataSource)).toEqual([]);
          await waitFor(
            async () => (await committedTotal(bed.env.kafka, options.consumer, topic)) === 6,
            { description: 'all 6 events acknowledged once the tables exist' },
          );
          for (const p of ['a', 'b', 'c']) {
            expect(await bed.effectVersions(`${prefix}-${p}`)).toEqual([1, 2]);
          }
          expect(app.metrics.outcomes.applied).toBe(6);
          expect(app.metrics.deadLettered).toBe(0);
          expect(await topicSize(bed.env.kafka, options.deadLetterTopic)).toBe(0);
          expect(app.metrics.blocks.list()).toEqual([]);
        } finally {
          await app.close();
          warned.mockRestore();
        }
      },
    );
  });
});

const INBOX_TABLES = [
  't_inbox',
  't_inbox_version',
  't_inbox_parked',
  't_inbox_dlq_replay',
  't_inbox_skip',
  't_inbox_prune',
];

describe.each(ENGINES)('Inbox consumer whose database user lacks the grants (%s)', (engine) => {
  const bed = useInboxTestBed(`inbox_grant_${engine}`, { engine });

  it('pauses until the GRANT, then applies every event once, with no dead letter', async () => {
    const { topic, options } = await bed.channel(`inbox.grant.${engine}`, 2);
    const user = await createDatabaseUser(bed.dataSource, bed.databaseUrl);
    // One table per GRANT: MySQL grants on one table at a time.
    const grantEach = async (privileges: string, tables: string[]) => {
      for (const table of tables) await user.grant(privileges, table);
    };
    try {
      await grantEach('SELECT', INBOX_TABLES);
      await grantEach('SELECT, INSERT, UPDATE, DELETE', ['t_test_effect', 't_test_lock']);
      await bed.producer.send({ topic, messages: sixEvents(`grant-${engine}`).map(toMessage) });
      const warned = warnings();
      const app = await bed.startApp({ ...options, databaseUrl: user.url });
      try {
        await expectWaiting(
          app,
          /t_inbox/,
          warned,
          /t_inbox is not granted .*grant this service's database user/,
        );
        expect(await committedTotal(bed.env.kafka, options.consumer, topic)).toBe(0);
        expect(await topicSize(bed.env.kafka, options.deadLetterTopic)).toBe(0);

        await grantEach('INSERT, UPDATE, DELETE', INBOX_TABLES);
        await waitFor(
          async () => (await committedTotal(bed.env.kafka, options.consumer, topic)) === 6,
          { description: 'all 6 events acknowledged once granted' },
        );
        for (const p of ['a', 'b', 'c']) {
          expect(await bed.effectVersions(`grant-${engine}-${p}`)).toEqual([1, 2]);
        }
        expect(app.metrics.deadLettered).toBe(0);
        expect(await topicSize(bed.env.kafka, options.deadLetterTopic)).toBe(0);
      } finally {
        await app.close();
        warned.mockRestore();
      }
    } finally {
      await user.drop();
    }
  });
});
