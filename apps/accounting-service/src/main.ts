import { bootstrapService } from '@app/service-bootstrap';
import { AccountingMigrations } from './migrations';
import { AccountingServiceConfig } from './accounting-service.config';
import { AccountingServiceModule } from './accounting-service.module';
import { configureAccountingService } from './accounting-service.setup';

void bootstrapService({
  name: 'accounting-service',
  config: AccountingServiceConfig,
  module: AccountingServiceModule.forRoot(),
  migrations: AccountingMigrations,
  port: (config) => config.ACCOUNTING_SERVICE_PORT,
  configure: (app) => configureAccountingService(app),
});
