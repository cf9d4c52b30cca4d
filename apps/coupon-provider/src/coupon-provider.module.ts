import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfigFromEnv, mysqlDataSourceOptions } from '@outbox-inbox/database';
import { ObservabilityModule } from '@app/observability';
import { CouponProviderConfig } from './coupon-provider.config';
import { CouponLookupHttpController } from './coupons/coupon-lookup.http.controller';
import { CouponsHttpController } from './coupons/coupons.http.controller';
import { CouponsRepository } from './coupons/coupons.repository';
import { CouponsService } from './coupons/coupons.service';
import { FaultInjectionInterceptor } from './faults/fault-injection.interceptor';
import { FaultInjector } from './faults/fault-injector';
import { FaultsHttpController } from './faults/faults.http.controller';
import { CouponMigrations } from './migrations';

@Module({})
export class CouponProviderModule {
  static forRoot(config: CouponProviderConfig): DynamicModule {
    return {
      module: CouponProviderModule,
      imports: [
        ObservabilityModule.forService('coupon-provider', config),
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            ...databaseConfigFromEnv(config),
            migrations: CouponMigrations,
          }),
        ),
      ],
      controllers: [
        CouponsHttpController,
        CouponLookupHttpController,
        // The fault switch exists only where fault injection is switched on.
        ...(config.COUPON_FAULTS_ENABLED ? [FaultsHttpController] : []),
      ],
      providers: [
        { provide: FaultInjector, useFactory: () => new FaultInjector() },
        FaultInjectionInterceptor,
        CouponsRepository,
        CouponsService,
      ],
    };
  }
}
