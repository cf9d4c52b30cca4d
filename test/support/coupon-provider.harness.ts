import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import { TEST_OPS_API_TOKEN, TestEnvironment } from '@outbox-inbox/test-kit';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CouponProviderConfig } from '../../apps/coupon-provider/src/coupon-provider.config';
import { configureCouponProviderHttp } from '../../apps/coupon-provider/src/coupon-provider.http';
import { CouponProviderModule } from '../../apps/coupon-provider/src/coupon-provider.module';

/** A running coupon-provider on a loopback port. */
export interface RunningCouponProvider {
  baseUrl: string;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Starts the coupon-provider as production does on port 0; pass `databaseUrl` to start it
 * again on the database of an earlier instance (a restart).
 */
export async function startCouponProvider(
  env: TestEnvironment,
  databaseUrl?: string,
): Promise<RunningCouponProvider & { databaseUrl: string }> {
  const url = databaseUrl ?? (await env.createDatabase('coupons')).url;
  const config = await serviceConfig(CouponProviderConfig, {
    DATABASE_URL: url,
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
  await dataSource.runMigrations();
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: url,
    dataSource,
    close: () => app.close(),
  };
}
