import { bootstrapService } from '@app/service-bootstrap';
import { FulfillmentMigrations } from './migrations';
import { FulfillmentServiceConfig } from './fulfillment-service.config';
import { FulfillmentServiceModule } from './fulfillment-service.module';
import { configureFulfillmentService } from './fulfillment-service.setup';

void bootstrapService({
  name: 'fulfillment-service',
  config: FulfillmentServiceConfig,
  module: FulfillmentServiceModule.forRoot(),
  migrations: FulfillmentMigrations,
  port: (config) => config.FULFILLMENT_SERVICE_PORT,
  configure: (app) => configureFulfillmentService(app),
});
