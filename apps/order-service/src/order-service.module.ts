import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@app/database';
import { HealthController } from '@app/runtime';
import { OrderServiceConfig } from './order-service.config';
import { OrderMigrations } from './migrations';

@Module({})
export class OrderServiceModule {
  static forRoot(config: OrderServiceConfig): DynamicModule {
    return {
      module: OrderServiceModule,
      imports: [
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            url: config.DATABASE_URL,
            poolSize: config.DB_POOL_SIZE,
            migrations: OrderMigrations,
          }),
        ),
      ],
      controllers: [HealthController],
    };
  }
}
