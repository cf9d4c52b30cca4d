import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { bootstrapService } from '@app/runtime';
import { AccountingServiceConfig } from './accounting-service.config';
import { AccountingServiceModule } from './accounting-service.module';

void bootstrapService({
  name: 'accounting-service',
  config: AccountingServiceConfig,
  module: (config) => AccountingServiceModule.forRoot(config),
  port: (config) => config.ACCOUNTING_SERVICE_PORT,
  configure: (app) => {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('accounting-service')
        .setDescription(
          'Double-entry ledger booked from trading events; see ledger/chart-of-accounts.ts',
        )
        .build(),
    );
    SwaggerModule.setup('docs', app, document);
  },
});
