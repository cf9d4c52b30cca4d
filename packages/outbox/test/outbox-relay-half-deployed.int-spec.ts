import { createDatabaseUser, waitFor } from '@outbox-inbox/test-kit';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { openPostgresDataSource } from '@outbox-inbox/database/postgres';
import { OutboxMigrations, OutboxWriter, probeOutboxSchema } from '../src';
import {
  CapturingLogger,
  consumeUntil,
  duplicates,
  statusCounts,
  writeParcelEvents,
} from './outbox-test-kit';
import { useRelayTestBed } from './relay-test-bed';

/**
 * A relay started before its deployment is complete: t_outbox not migrated yet, or its
 * database user without the grants. It waits, says so once, and publishes every row once
 * when the migrations or the GRANT are in place; no row is failed for it.
 */
describe.each(['mysql', 'postgres'] as const)(
  'OutboxRelay on a half-done deployment (%s)',
  (engine) => {
    const bed = useRelayTestBed(`relay_half_${engine}`, `relay-half-${engine}`, 10, {}, engine);
    const writer = new OutboxWriter();

    it('waits while t_outbox is missing, then publishes every row once the migrations ran', async () => {
      const topic = await bed.env.createTopic(`outbox.half.${engine}`, 2);
      for (const _ of OutboxMigrations) await bed.dataSource.undoLastMigration();
      expect(await probeOutboxSchema(bed.dataSource)).toMatchObject([
        { kind: 'table', subject: 't_outbox' },
      ]);
      const logger = new CapturingLogger();
      const relay = bed.relay(topic, { logger });
      relay.start();
      try {
        await waitFor(() => (relay.faults()[0]?.rounds ?? 0) >= 3, {
          description: 'three claim rounds that met the missing table',
        });
        expect(relay.faults()).toEqual([
          expect.objectContaining({
            kind: 'schema',
            subject: 't_outbox',
            code: engine === 'mysql' ? 'ER_NO_SUCH_TABLE' : '42P01',
            remedy: expect.stringContaining('run OutboxMigrations'),
          }),
        ]);
        // One line at onset, however many rounds; no error line per round.
        expect(logger.lines.filter((l) => l.includes('t_outbox'))).toEqual([
          expect.stringMatching(
            /^warn outbox relay cannot claim: table t_outbox is missing .*run OutboxMigrations/,
          ),
        ]);

        await bed.dataSource.runMigrations({ transaction: 'each' });
        const keys = await writeParcelEvents(bed.dataSource, writer, 10, 2, `half-${engine}-`);
        relay.wake();
        await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 20, {
          description: 'all 20 rows SENT once t_outbox exists',
        });
        expect(relay.faults()).toEqual([]);
        expect(
          logger.lines.filter((l) => l.startsWith('log outbox relay claims again')),
        ).toHaveLength(1);
        expect(logger.lines.filter((l) => l.startsWith('error'))).toEqual([]);
        const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 20);
        expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
        expect(duplicates(messages)).toEqual([]);
        expect(await statusCounts(bed.dataSource)).toEqual({ SENT: 20 });
      } finally {
        await relay.stop();
      }
    });

    it('waits while its user lacks the grants, with rows NEW and none DEAD, then sends them all once granted', async () => {
      const topic = await bed.env.createTopic(`outbox.grant.${engine}`, 1);
      const keys = await writeParcelEvents(bed.dataSource, writer, 5, 2, `grant-${engine}-`);
      const user = await createDatabaseUser(bed.dataSource, bed.databaseUrl);
      try {
        await user.grant('SELECT', 't_outbox');
        const open = engine === 'mysql' ? openMysqlDataSource : openPostgresDataSource;
        const asUser = await open({ url: user.url, poolSize: 4 });
        const logger = new CapturingLogger();
        const relay = bed.relay(topic, { dataSource: asUser, logger });
        try {
          expect(await probeOutboxSchema(asUser)).toMatchObject([
            { kind: 'grant', subject: 'INSERT on t_outbox' },
            { kind: 'grant', subject: 'UPDATE on t_outbox' },
            { kind: 'grant', subject: 'DELETE on t_outbox' },
          ]);
          relay.start();
          await waitFor(() => (relay.faults()[0]?.rounds ?? 0) >= 3, {
            description: 'three claim rounds refused for a missing grant',
          });
          expect(relay.faults()).toEqual([
            expect.objectContaining({ kind: 'schema', remedy: expect.stringContaining('grant') }),
          ]);
          expect(await statusCounts(bed.dataSource)).toEqual({ NEW: 10 });

          await user.grant('INSERT, UPDATE, DELETE', 't_outbox');
          relay.wake();
          await waitFor(async () => (await statusCounts(bed.dataSource)).SENT === 10, {
            description: 'all 10 rows SENT once granted',
          });
          expect(relay.faults()).toEqual([]);
          expect(await probeOutboxSchema(asUser)).toEqual([]);
          const messages = await consumeUntil(bed.env.kafka, topic, (m) => m.length >= 10);
          expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
          expect(duplicates(messages)).toEqual([]);
          expect(
            logger.lines.filter((l) => l.startsWith('warn outbox relay cannot claim')),
          ).toHaveLength(1);
        } finally {
          await relay.stop();
          await asUser.destroy();
        }
      } finally {
        await user.drop();
      }
    });
  },
);
