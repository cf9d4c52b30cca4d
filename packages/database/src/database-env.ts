import type { DataSourceConfig } from './sql-dialect';

/** The variables naming a service's own database (declared and validated in libs/config). */
export interface DatabaseEnv {
  DATABASE_URL: string;
  DB_POOL_SIZE: number;
  DB_LOCK_WAIT_TIMEOUT_S?: number;
}

/** The data source settings the environment decides: the URL, the pool size, the lock wait. */
export function databaseConfigFromEnv(
  env: DatabaseEnv,
): Pick<DataSourceConfig, 'url' | 'poolSize' | 'lockWaitTimeoutS'> {
  return {
    url: env.DATABASE_URL,
    poolSize: env.DB_POOL_SIZE,
    lockWaitTimeoutS: env.DB_LOCK_WAIT_TIMEOUT_S,
  };
}
