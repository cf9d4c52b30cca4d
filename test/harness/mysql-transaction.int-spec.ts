import { runTransaction } from '@outbox-inbox/database';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TestEnvironment, waitFor } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';

describe('MySQL harness', () => {
  let env: TestEnvironment;
  let db: DataSource;

  beforeAll(async () => {
    env = await startTestEnvironment();
    const database = await env.createDatabase('harness');
    db = await openMysqlDataSource({ url: database.url, poolSize: 4 });
    await db.query('CREATE TABLE t_item (id BIGINT PRIMARY KEY, name VARCHAR(32) NOT NULL)');
  });

  afterAll(async () => {
    await db?.destroy();
    await env.stop();
  });

  it('commits a transaction', async () => {
    await runTransaction(db, (m) => m.query('INSERT INTO t_item VALUES (1, ?)', ['kept']));
    expect(await db.query('SELECT id, name FROM t_item')).toEqual([{ id: '1', name: 'kept' }]);
  });

  it('rolls a transaction back when the work throws, leaving no row', async () => {
    await expect(
      runTransaction(db, async (m) => {
        await m.query('INSERT INTO t_item VALUES (2, ?)', ['lost']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query('SELECT id FROM t_item WHERE id = 2')).toEqual([]);
  });

  it('retries a transaction chosen as a deadlock victim, whole, until it commits', async () => {
    const filler = Array.from({ length: 50 }, (_, i) => `(${100 + i}, 'f')`).join(',');
    await db.query(`INSERT INTO t_item VALUES (10, 'a'), (11, 'b'), ${filler}`);
    const holder = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    // The holder changes many rows, so InnoDB picks the lighter transaction as the victim.
    await holder.query("UPDATE t_item SET name = 'holder' WHERE id = 11 OR id >= 100");

    let attempts = 0;
    let lockedFirstRow!: () => void;
    const firstRowLocked = new Promise<void>((resolve) => (lockedFirstRow = resolve));
    const retried = runTransaction(db, async (m) => {
      attempts++;
      await m.query('UPDATE t_item SET name = ? WHERE id = 10', [`retried-${attempts}`]);
      lockedFirstRow();
      await m.query('UPDATE t_item SET name = ? WHERE id = 11', [`retried-${attempts}`]);
    });
    await firstRowLocked;
    await waitFor(
      async () => {
        const [row] = await db.query(
          "SELECT COUNT(*) AS n FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'",
        );
        return Number(row.n) === 1;
      },
      { description: 'the retried transaction waits for row 11' },
    );
    await holder.query("UPDATE t_item SET name = 'holder' WHERE id = 10"); // closes the cycle
    await holder.commitTransaction();
    await holder.release();
    await retried;

    expect(attempts).toBe(2);
    expect(await db.query('SELECT id, name FROM t_item WHERE id IN (10, 11) ORDER BY id')).toEqual([
      { id: '10', name: 'retried-2' },
      { id: '11', name: 'retried-2' },
    ]);
  });
});
