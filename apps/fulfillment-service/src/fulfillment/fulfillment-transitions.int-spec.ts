import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import {
  createTestDatabase,
  Infrastructure,
  resolveInfrastructure,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { FulfillmentMigrations } from '../migrations';
import { markGranted, markGrantFailed } from './domain/fulfillment';
import { FulfillmentRepository, NewFulfillment } from './fulfillment.repository';

/** Every state a fulfillment is written in lands in t_fulfillment_transition, once. */
describe('fulfillment transitions', () => {
  let infra: Infrastructure;
  let database: TestDatabase;
  let dataSource: DataSource;
  const repository = new FulfillmentRepository();

  beforeAll(async () => {
    infra = await resolveInfrastructure();
    database = await createTestDatabase(infra.mysqlUrl, 'fulfillment_transitions');
    dataSource = await openMysqlDataSource({
      url: database.url,
      migrations: FulfillmentMigrations,
    });
    await dataSource.runMigrations({ transaction: 'each' });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    await infra?.stop();
  });

  const fresh: NewFulfillment = {
    orderId: '42',
    userId: 'u-1',
    status: 'INIT',
    grantKey: 'grant-42',
    couponValue: 100,
    currency: 'EUR',
  };

  it('records the insert once (not the repeats) and each saved state, in its transaction', async () => {
    const now = new Date('2026-12-01T10:00:00.000Z');
    await dataSource.transaction((m) => repository.insertIfAbsent(m, fresh, now));
    await dataSource.transaction((m) => repository.insertIfAbsent(m, fresh, now));
    const initial = (await repository.findByOrder(dataSource.manager, '42'))!;
    const failed = markGrantFailed(initial, 'provider down', now, {
      maxAttempts: 5,
      delayAfter: () => 1_000,
    });
    await dataSource.transaction((m) => repository.save(m, initial, failed, now));
    // A save whose transaction rolls back leaves no transition either.
    await expect(
      dataSource.transaction(async (m) => {
        await repository.save(m, failed, markGranted(failed, 'CPN-LOST'), now);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await dataSource.transaction((m) =>
      repository.save(m, failed, markGranted(failed, 'CPN-1'), now),
    );

    const rows = (await dataSource.query(
      `SELECT fulfillment_id, version, status, attempts, last_error FROM t_fulfillment_transition
       ORDER BY id`,
    )) as Array<Record<string, unknown>>;
    expect(
      rows.map((r) => [String(r.fulfillment_id), r.version, r.status, r.attempts, r.last_error]),
    ).toEqual([
      [initial.id, 1, 'INIT', 0, null],
      [initial.id, 2, 'FAILED', 1, 'provider down'],
      [initial.id, 3, 'DONE', 2, null],
    ]);
  });

  it('insertIfAbsentAndLock: one transition for the new row, none for a repeat; a stale save records none', async () => {
    const now = new Date('2026-12-01T11:00:00.000Z');
    const other = { ...fresh, orderId: '43', grantKey: 'grant-43' };
    const first = await dataSource.transaction((m) =>
      repository.insertIfAbsentAndLock(m, other, now),
    );
    const again = await dataSource.transaction((m) =>
      repository.insertIfAbsentAndLock(m, other, now),
    );
    expect(again).toEqual(first);
    expect(first).toMatchObject({ orderId: '43', status: 'INIT', version: 1 });
    // A save against a version that moved on fails, and its transition goes with it.
    const done = markGranted(first!, 'CPN-43');
    await dataSource.transaction((m) => repository.save(m, first!, done, now));
    await expect(
      dataSource.transaction((m) => repository.save(m, first!, done, now)),
    ).rejects.toThrow('changed under version 1');
    const rows = (await dataSource.query(
      'SELECT version, status FROM t_fulfillment_transition WHERE fulfillment_id = ? ORDER BY id',
      [first!.id],
    )) as Array<{ version: number; status: string }>;
    expect(rows.map((r) => [r.version, r.status])).toEqual([
      [1, 'INIT'],
      [2, 'DONE'],
    ]);
  });
});
