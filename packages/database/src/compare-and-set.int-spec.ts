import { startTestEnvironment, TestEnvironment } from '@app/test-kit';
import { DataSource } from 'typeorm';
import { compareAndSet } from './compare-and-set';
import { openMysqlDataSource } from './mysql/mysql-data-source';
import { runTransaction } from './run-transaction';
import { runStatements } from './statements';

class LostRace extends Error {}

describe('compareAndSet', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const row = async () =>
    ((await dataSource.query('SELECT status, version FROM t_thing WHERE id = 1')) as unknown[])[0];
  const move = (status: string, from: number) =>
    compareAndSet({
      table: 't_thing',
      set: { status, version: from + 1 },
      expected: { id: 1, version: from },
      lost: () => new LostRace(`thing 1 is no longer at version ${from}`),
    });

  beforeAll(async () => {
    env = await startTestEnvironment();
    const { url } = await env.createDatabase('cas');
    dataSource = await openMysqlDataSource({ url, poolSize: 2 });
    await dataSource.query(
      'CREATE TABLE t_thing (id INT PRIMARY KEY, status VARCHAR(10) NOT NULL, version INT NOT NULL)',
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM t_thing');
    await dataSource.query("INSERT INTO t_thing VALUES (1, 'NEW', 1)");
  });

  it('writes the row while the expected version holds', async () => {
    await runTransaction(dataSource, (manager) => runStatements(manager, [move('PAID', 1)]));
    expect(await row()).toEqual({ status: 'PAID', version: 2 });
  });

  it('throws lost() for a stale version, and the transaction takes back what went with it', async () => {
    await runStatements(dataSource.manager, [move('PAID', 1)]);
    await expect(
      runTransaction(dataSource, (manager) =>
        runStatements(manager, [
          {
            sql: "UPDATE t_thing SET status = 'SIDE' WHERE id = 1",
            params: [],
            read: () => undefined,
          },
          move('CANCELLED', 1),
        ]),
      ),
    ).rejects.toBeInstanceOf(LostRace);
    expect(await row()).toEqual({ status: 'PAID', version: 2 });
  });

  it('of two writers from the same version, exactly one wins', async () => {
    const outcomes = await Promise.allSettled(
      ['PAID', 'CANCELLED'].map((status) =>
        runTransaction(dataSource, (manager) => runStatements(manager, [move(status, 1)])),
      ),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await row()).toMatchObject({ version: 2 });
  });

  it('refuses a name that is not a plain identifier', () => {
    expect(() =>
      compareAndSet({
        table: 't; DROP TABLE x',
        set: { a: 1 },
        expected: { id: 1 },
        lost: () => new LostRace(),
      }),
    ).toThrow('not a plain identifier');
  });
});
