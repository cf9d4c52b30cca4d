import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfigFromEnv } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { ObservabilityModule } from '@app/observability';
import { OperatorAuthModule } from '@app/service-bootstrap';
import { CouponProviderConfig } from './coupon-provider.config';
import { CouponLookupHttpController } from './coupons/coupon-lookup.http.controller';
import { CouponsHttpController } from './coupons/coupons.http.controller';
import { CouponsRepository } from './coupons/coupons.repository';
import { CouponsService } from './coupons/coupons.service';
import { FaultInjectionInterceptor } from './faults/fault-injection.interceptor';
import { FaultInjector } from './faults/fault-injector';
import { FaultsHttpController } from './faults/faults.http.controller';
import { CouponMigrations } from './migrations';

/** The coupon provider. Its settings come from CouponProviderConfig at DI time. */
@Module({
  imports: [
    ObservabilityModule.forService('coupon-provider', CouponProviderConfig),
    OperatorAuthModule.forService(CouponProviderConfig),
    TypeOrmModule.forRootAsync({
      inject: [CouponProviderConfig],
      useFactory: (config: CouponProviderConfig) =>
        mysqlDataSourceOptions({ ...databaseConfigFromEnv(config), migrations: CouponMigrations }),
    }),
  ],
  // The fault switch answers only where fault injection is switched on (FaultApiSwitch).
  controllers: [CouponsHttpController, CouponLookupHttpController, FaultsHttpController],
  providers: [
    { provide: FaultInjector, useFactory: () => new FaultInjector() },
    FaultInjectionInterceptor,
    CouponsRepository,
    CouponsService,
  ],
})
export class CouponProviderModule {}
