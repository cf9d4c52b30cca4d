import {
  insertSentHistory,
  openOutboxDatabase,
  startTestEnvironment,
  TestEnvironment,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxWriter } from '../src';
import { mysqlOutboxSql } from '../src/store/sql/mysql-outbox-sql';
import { writeParcelEvents } from './outbox-test-kit';

interface PlanRow {
  table: string;
  type: string;
  key: string | null;
  rows: string | number;
  Extra: string | null;
}

/**
 * The claim must read only the due part of the backlog, in index order. The benchmark
 * (bench/relay.bench.ts) repeats the EXPLAIN with 1,000,000 SENT rows; this test keeps the
 * history at 200,000 rows so it stays quick on a shared machine.
 */
describe('claim query plan', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;

  beforeAll(async () => {
    env = await startTestEnvironment();
    dataSource = await openOutboxDatabase((await env.createDatabase('outbox_plan')).url);
    await insertSentHistory(dataSource, 200_000);
    await writeParcelEvents(dataSource, new OutboxWriter(), 300, 1, 'due');
    await dataSource.query('ANALYZE TABLE t_outbox');
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  it.each([
    ['due NEW rows', 'idx_status_retry', mysqlOutboxSql.claimDueNew(100)],
    ['expired SENDING rows', 'idx_status_retry', mysqlOutboxSql.claimExpired(100)],
  ])('claims %s by a range on %s, without a sort', async (_, index, { sql, params }) => {
    const plan = (await dataSource.query(`EXPLAIN ${sql}`, params)) as PlanRow[];
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ table: 't_outbox', type: 'range', key: index });
    expect(plan[0].Extra ?? '').not.toMatch(/filesort/i);
    expect(Number(plan[0].rows)).toBeLessThan(10_000);
  });

  it('reads about a batch of index entries, not the 200,000 SENT rows', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction('READ COMMITTED');
      const before = await handlerReads(runner.query.bind(runner));
      const { sql, params } = mysqlOutboxSql.claimDueNew(100);
      const claimed = (await runner.query(sql, params)) as unknown[];
      const after = await handlerReads(runner.query.bind(runner));
      await runner.rollbackTransaction();
      expect(claimed).toHaveLength(100);
      expect(after - before).toBeLessThan(1_000);
    } finally {
      await runner.release();
    }
  });
});

/** Rows the storage engine handed to the server in this session (index and table reads). */
async function handlerReads(query: (sql: string) => Promise<unknown>): Promise<number> {
  const rows = (await query(
    `SHOW SESSION STATUS WHERE Variable_name IN
       ('Handler_read_key', 'Handler_read_next', 'Handler_read_rnd_next', 'Handler_read_first')`,
  )) as Array<{ Variable_name: string; Value: string }>;
  return rows.reduce((sum, r) => sum + Number(r.Value), 0);
}
