import { INestApplication } from '@nestjs/common';
import { InboxTransport } from '@outbox-inbox/inbox';
import { configureHttp } from '@app/service-bootstrap';

/**
 * What the service adds to the Nest app before it starts: the OpenAPI document at /docs and
 * the inbox consumers (started by bootstrapService before the HTTP server). Shared by main.ts
 * and the integration tests, so both run the same wiring.
 */
export function configureAccountingService(app: INestApplication): void {
  configureHttp(app, {
    globalValidation: false, // the Kafka handlers share the app's global pipes
    bodyLimitBytes: 64 * 1024, // a replay may name up to 1,000 dead letters
    title: 'accounting-service',
    description:
      'Double-entry ledger booked from trading events; the chart of accounts and the postings per event are in src/ledger/chart-of-accounts.ts',
  });
  app.connectMicroservice({ strategy: app.get(InboxTransport) }, { inheritAppConfig: true });
}
