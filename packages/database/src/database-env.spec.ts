import { databaseConfigFromEnv } from './database-env';

describe('databaseConfigFromEnv', () => {
  it('takes the URL, the pool size and the lock wait from their variables', () => {
    const url = 'mysql://root@127.0.0.1:3306/order_service';
    expect(
      databaseConfigFromEnv({ DATABASE_URL: url, DB_POOL_SIZE: 7, DB_LOCK_WAIT_TIMEOUT_S: 5 }),
    ).toEqual({ url, poolSize: 7, lockWaitTimeoutS: 5 });
    expect(databaseConfigFromEnv({ DATABASE_URL: url, DB_POOL_SIZE: 10 }).lockWaitTimeoutS).toBe(
      undefined,
    );
  });
});
