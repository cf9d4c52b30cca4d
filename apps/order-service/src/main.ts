import { bootstrapService } from '@app/service-bootstrap';
import { OrderMigrations } from './migrations';
import { OrderServiceConfig } from './order-service.config';
import { configureOrderServiceHttp } from './order-service.http';
import { OrderServiceModule } from './order-service.module';

void bootstrapService({
  name: 'order-service',
  config: OrderServiceConfig,
  module: OrderServiceModule.forRoot(),
  migrations: OrderMigrations,
  port: (config) => config.ORDER_SERVICE_PORT,
  configure: (app) => configureOrderServiceHttp(app),
});
