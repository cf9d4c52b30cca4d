import {
  createPostgresTestDatabase,
  openOutboxDatabase,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxWriter } from '../src';
import { postgresOutboxSql } from '../src/store/sql/postgres-outbox-sql';
import { OutboxQuery } from '../src/testing';
import { writeParcelEvents } from './outbox-test-kit';

/** A node of PostgreSQL's EXPLAIN (FORMAT JSON) plan. */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The claim and retention read their range of idx_outbox_status_retry (status, next_retry_at,
 * id) in index order: no sort, and not the SENT history. 100,000 SENT rows keep it quick.
 */
describe('claim query plan on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('outbox_plan');
    dataSource = await openOutboxDatabase(database.url, 2);
    await dataSource.query(
      `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
         event_key, event_id, payload, headers, status, next_retry_at, created_at, updated_at,
         sent_at)
       SELECT 'Parcel', 'hist' || n, 1, 'ParcelRegistered', 'ParcelRegistered:hist' || n || ':1',
         gen_random_uuid(), $1, '{}', 'SENT', ts, ts, ts, ts
       FROM generate_series(1, 100000) AS n, statement_timestamp() AS ts`,
      [JSON.stringify({ history: 'x'.repeat(300) })],
    );
    await writeParcelEvents(dataSource, new OutboxWriter(), 300, 1, 'due');
    await dataSource.query('ANALYZE t_outbox');
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** The plan of `query`, run (ANALYZE) in a transaction that is rolled back. */
  async function plan({ sql, params }: OutboxQuery, analyze: boolean): Promise<PlanNode[]> {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      const [row] = (await runner.query(
        `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${sql}`,
        params,
      )) as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
      return nodesOf(row['QUERY PLAN'][0].Plan);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it.each([
    ['due NEW rows', postgresOutboxSql.claimDueNew(100)],
    [
      'due NEW rows leased in one statement',
      postgresOutboxSql.claimAndLeaseDueNew!(100, { owner: 'o', token: 't', leaseMs: 1000 }, [
        'NEW',
        'SENDING',
      ]),
    ],
    ['expired SENDING rows', postgresOutboxSql.claimExpired(100)],
    ['SENT rows to delete', postgresOutboxSql.deleteSent(0, 100)],
  ])('reads %s on idx_outbox_status_retry, without a sort', async (_, query) => {
    const nodes = await plan(query, false);
    expect(nodes.map((n) => n['Node Type']).filter((type) => /Sort/.test(type))).toEqual([]);
    expect(nodes.filter((n) => n['Index Name'] === 'idx_outbox_status_retry')).toHaveLength(1);
  });

  it('reads a batch of index entries for a claim, not the 100,000 SENT rows', async () => {
    const nodes = await plan(postgresOutboxSql.claimDueNew(100), true);
    const scan = nodes.find((n) => n['Index Name'] === 'idx_outbox_status_retry');
    expect(scan?.['Actual Rows']).toBe(100);
  });
});
