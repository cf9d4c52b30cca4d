import { bootstrapService } from '@app/service-bootstrap';
import { CouponMigrations } from './migrations';
import { CouponProviderConfig } from './coupon-provider.config';
import { configureCouponProviderHttp } from './coupon-provider.http';
import { CouponProviderModule } from './coupon-provider.module';

void bootstrapService({
  name: 'coupon-provider',
  config: CouponProviderConfig,
  module: CouponProviderModule,
  migrations: CouponMigrations,
  port: (config) => config.COUPON_PROVIDER_PORT,
  configure: (app) => configureCouponProviderHttp(app),
});
