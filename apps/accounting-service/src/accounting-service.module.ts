import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@app/database';
import { HealthController } from '@app/runtime';
import { AccountingServiceConfig } from './accounting-service.config';
import { LedgerModule } from './ledger/ledger.module';
import { AccountingMigrations } from './migrations';

@Module({})
export class AccountingServiceModule {
  static forRoot(config: AccountingServiceConfig): DynamicModule {
    return {
      module: AccountingServiceModule,
      imports: [
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            url: config.DATABASE_URL,
            poolSize: config.DB_POOL_SIZE,
            migrations: AccountingMigrations,
          }),
        ),
        LedgerModule,
      ],
      controllers: [HealthController],
    };
  }
}
