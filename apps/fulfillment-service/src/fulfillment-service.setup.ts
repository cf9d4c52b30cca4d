import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { InboxTransport } from '@app/inbox';

/**
 * What the service adds to the Nest app before it starts: the OpenAPI document at /docs and
 * the inbox consumer. Shared by main.ts and the integration tests.
 */
export function configureFulfillmentService(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('fulfillment-service')
      .setDescription('Grants one coupon per paid order, through the inbox and the outbox')
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  app.connectMicroservice({ strategy: app.get(InboxTransport) }, { inheritAppConfig: true });
}
