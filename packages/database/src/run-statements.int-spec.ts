import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource, DataSourceOptions } from 'typeorm';
import { mysqlDataSourceOptions } from './mysql/mysql-data-source';
import { runTransaction } from './run-transaction';
import { allowsMultipleStatements, runStatements } from './run-statements';
import type { Statement } from './statements';

const insert = (name: string): Statement<number> => ({
  sql: 'INSERT INTO t_item (name) VALUES (?)',
  params: [name],
  read: (result) => (result as { affectedRows: number }).affectedRows,
});
const names: Statement<string[]> = {
  sql: 'SELECT name FROM t_item ORDER BY name',
  params: [],
  read: (rows) => (rows as Array<{ name: string }>).map((r) => r.name),
};

describe.each([
  ['in one query (multipleStatements)', true],
  ['one query each (a pool without multipleStatements)', false],
])('runStatements %s', (_mode, multipleStatements) => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const committed = async () => (await runStatements(dataSource.manager, [names]))[0].join(',');

  beforeAll(async () => {
    env = await startTestEnvironment();
    const { url } = await env.createDatabase('statements');
    dataSource = new DataSource({
      ...mysqlDataSourceOptions({ url, poolSize: 2 }),
      multipleStatements,
    } as DataSourceOptions);
    await dataSource.initialize();
    expect(allowsMultipleStatements(dataSource)).toBe(multipleStatements);
    await dataSource.query(
      'CREATE TABLE t_item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)',
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM t_item');
  });

  it('gives each statement its own result, in order, as the first of a transaction too', async () => {
    const results = await runTransaction(dataSource, (manager) =>
      runStatements(manager, [insert('a'), insert('b'), names]),
    );
    expect(results).toEqual([1, 1, ['a', 'b']]);
    expect(await runStatements(dataSource.manager, [names])).toEqual([['a', 'b']]);
  });

  it('stops at the first failing statement and rejects with its error', async () => {
    await runStatements(dataSource.manager, [insert('a')]);
    await expect(
      runTransaction(dataSource, (manager) =>
        runStatements(manager, [insert('b'), insert('a'), insert('c')]),
      ),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(await committed()).toBe('a'); // b rolled back with the transaction, c never ran
  });

  it("rejects with a read's error, and the caller's transaction rolls back", async () => {
    const refused: Statement = {
      ...insert('b'),
      read: () => {
        throw new Error('lost the race');
      },
    };
    await expect(
      runTransaction(dataSource, (manager) => runStatements(manager, [insert('a'), refused])),
    ).rejects.toThrow('lost the race');
    expect(await committed()).toBe('');
  });
});
