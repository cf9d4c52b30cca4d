import { affectedRows, allowsMultipleStatements, Statement } from '@outbox-inbox/database';
import {
  parcelRegistered,
  ParcelRegisteredV1,
  startTestEnvironment,
  TestEnvironment,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxMigrations, OutboxWriter } from '../src';

/**
 * An adopter's own MySQL DataSource, built with TypeORM's options alone: its pool has no
 * `multipleStatements`, so one query carries one statement. The writer's `alongside` statements
 * must still run with the event, in order, in the caller's transaction.
 */
describe('OutboxWriter on a MySQL pool without multipleStatements', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const writer = new OutboxWriter();

  beforeAll(async () => {
    env = await startTestEnvironment();
    const { url } = await env.createDatabase('outbox_plain_pool');
    dataSource = new DataSource({ type: 'mysql', url, migrations: OutboxMigrations });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(
      'CREATE TABLE t_parcel (id VARCHAR(32) PRIMARY KEY, version INT NOT NULL, status VARCHAR(16) NOT NULL)',
    );
    await dataSource.query(
      'CREATE TABLE t_parcel_history (parcel_id VARCHAR(32), version INT, status VARCHAR(16), PRIMARY KEY (parcel_id, version))',
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  /** Moves a parcel from `from` to the next version with `status`, or throws: a compare-and-set. */
  const advance = (id: string, from: number, status: string): Statement<void> => ({
    sql: 'UPDATE t_parcel SET version = ?, status = ? WHERE id = ? AND version = ?',
    params: [from + 1, status, id, from],
    read: (result) => {
      if (affectedRows(result) !== 1) throw new Error(`${id} is not at version ${from}`);
    },
  });
  const history = (id: string, version: number, status: string): Statement<void> => ({
    sql: 'INSERT INTO t_parcel_history (parcel_id, version, status) VALUES (?, ?, ?)',
    params: [id, version, status],
    read: () => undefined,
  });
  const addAt = (id: string, version: number, alongside: Statement<void>[]) =>
    dataSource.transaction((manager) =>
      writer.add(
        manager,
        ParcelRegisteredV1,
        { aggregateId: id, aggregateVersion: version, payload: parcelRegistered(id) },
        alongside,
      ),
    );
  const eventKeys = async (id: string) =>
    (
      (await dataSource.query(
        'SELECT event_key FROM t_outbox WHERE aggregate_id = ? ORDER BY aggregate_version',
        [id],
      )) as Array<{ event_key: string }>
    ).map((r) => r.event_key);
  const parcel = async (id: string) =>
    (await dataSource.query('SELECT version, status FROM t_parcel WHERE id = ?', [id])) as unknown;
  const historyOf = async (id: string) =>
    (await dataSource.query(
      'SELECT version, status FROM t_parcel_history WHERE parcel_id = ? ORDER BY version',
      [id],
    )) as unknown;

  it('is a pool on which one query carries one statement', () => {
    expect(allowsMultipleStatements(dataSource)).toBe(false);
  });

  it("commits the caller's statements and the event together", async () => {
    await dataSource.query("INSERT INTO t_parcel VALUES ('p1', 1, 'REGISTERED')");
    await addAt('p1', 2, [advance('p1', 1, 'SHIPPED'), history('p1', 2, 'SHIPPED')]);
    expect(await eventKeys('p1')).toEqual(['ParcelRegistered:p1:2']);
    expect(await parcel('p1')).toEqual([{ version: 2, status: 'SHIPPED' }]);
    expect(await historyOf('p1')).toEqual([{ version: 2, status: 'SHIPPED' }]);
  });

  it('takes the event and the other statements back when the compare-and-set loses', async () => {
    await dataSource.query("INSERT INTO t_parcel VALUES ('p2', 2, 'SHIPPED')");
    await expect(
      addAt('p2', 2, [history('p2', 2, 'LOST'), advance('p2', 1, 'LOST')]),
    ).rejects.toThrow('p2 is not at version 1');
    expect(await eventKeys('p2')).toEqual([]);
    expect(await parcel('p2')).toEqual([{ version: 2, status: 'SHIPPED' }]);
    expect(await historyOf('p2')).toEqual([]);
  });

  it('stops at a failing statement: neither the event nor what ran before it stays', async () => {
    await dataSource.query("INSERT INTO t_parcel VALUES ('p3', 1, 'REGISTERED')");
    await dataSource.query("INSERT INTO t_parcel_history VALUES ('p3', 2, 'TAKEN')");
    await expect(
      addAt('p3', 2, [advance('p3', 1, 'SHIPPED'), history('p3', 2, 'SHIPPED')]),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(await eventKeys('p3')).toEqual([]);
    expect(await parcel('p3')).toEqual([{ version: 1, status: 'REGISTERED' }]);
    expect(await historyOf('p3')).toEqual([{ version: 2, status: 'TAKEN' }]);
  });
});
