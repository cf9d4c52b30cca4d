import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { InboxTransport } from '@app/inbox';

/**
 * What the service adds to the Nest app before it starts: the OpenAPI document at /docs and
 * the inbox consumers (started by bootstrapService before the HTTP server). Shared by main.ts
 * and the integration tests, so both run the same wiring.
 */
export function configureAccountingService(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('accounting-service')
      .setDescription(
        'Double-entry ledger booked from trading events; the chart of accounts and the postings per event are in src/ledger/chart-of-accounts.ts',
      )
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  app.connectMicroservice({ strategy: app.get(InboxTransport) }, { inheritAppConfig: true });
}
