import { INestApplication } from '@nestjs/common';
import { InboxTransport } from '@outbox-inbox/inbox';
import { configureHttp } from '@app/service-bootstrap';

/**
 * What the service adds to the Nest app before it starts: the OpenAPI document at /docs and
 * the inbox consumer. Shared by main.ts and the integration tests.
 */
export function configureFulfillmentService(app: INestApplication): void {
  configureHttp(app, {
    globalValidation: false, // the Kafka handlers share the app's global pipes
    bodyLimitBytes: 64 * 1024, // a replay may name up to 1,000 dead letters
    title: 'fulfillment-service',
    description: 'Grants one coupon per paid order, through the inbox and the outbox',
  });
  app.connectMicroservice({ strategy: app.get(InboxTransport) }, { inheritAppConfig: true });
}
