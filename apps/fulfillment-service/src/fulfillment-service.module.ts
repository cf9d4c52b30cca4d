import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@app/database';
import { HealthController } from '@app/runtime';
import { FulfillmentServiceConfig } from './fulfillment-service.config';
import { FulfillmentMigrations } from './migrations';

@Module({})
export class FulfillmentServiceModule {
  static forRoot(config: FulfillmentServiceConfig): DynamicModule {
    return {
      module: FulfillmentServiceModule,
      imports: [
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            url: config.DATABASE_URL,
            poolSize: config.DB_POOL_SIZE,
            migrations: FulfillmentMigrations,
          }),
        ),
      ],
      controllers: [HealthController],
    };
  }
}
