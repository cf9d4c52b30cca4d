import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import { TEST_OPS_API_TOKEN, TestEnvironment } from '@outbox-inbox/test-kit';
import { createServiceUser } from '@app/trading-test-kit';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CouponProviderConfig } from '../../apps/coupon-provider/src/coupon-provider.config';
import { configureCouponProviderHttp } from '../../apps/coupon-provider/src/coupon-provider.http';
import { CouponMigrations } from '../../apps/coupon-provider/src/migrations';
import { CouponProviderModule } from '../../apps/coupon-provider/src/coupon-provider.module';

/** A running coupon-provider on a loopback port. */
export interface RunningCouponProvider {
  baseUrl: string;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Starts the coupon-provider as production does on port 0, migrated by the database's owner and
 * running as a user of its own with deploy/mysql/service-users.sql's grants (dropped on close);
 * pass `databaseUrl` (the owner's, as returned) to start it again on the database of an earlier
 * instance (a restart).
 */
export async function startCouponProvider(
  env: TestEnvironment,
  databaseUrl?: string,
): Promise<RunningCouponProvider & { databaseUrl: string }> {
  const url = databaseUrl ?? (await env.createDatabase('coupons')).url;
  const owner = await openMysqlDataSource({ url, migrations: CouponMigrations, poolSize: 1 });
  try {
    await owner.runMigrations();
  } finally {
    await owner.destroy();
  }
  const user = await createServiceUser(url, 'coupon_provider');
  const config = await serviceConfig(CouponProviderConfig, {
    DATABASE_URL: user.url,
    DB_POOL_SIZE: '20',
    OPS_API_TOKEN: TEST_OPS_API_TOKEN,
    COUPON_FAULTS_ENABLED: 'true',
  });
  const app: INestApplication = await NestFactory.create(
    serviceRoot(config, CouponProviderModule),
    {
      logger: ['error'],
    },
  );
  configureCouponProviderHttp(app);
  await app.listen(0, '127.0.0.1');
  const dataSource = app.get(DataSource);
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: url,
    dataSource,
    close: async () => {
      await app.close();
      await user.drop();
    },
  };
}
