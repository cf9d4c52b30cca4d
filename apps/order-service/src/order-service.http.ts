import { INestApplication } from '@nestjs/common';
import { configureHttp } from '@app/service-bootstrap';
import { PAY_CALLBACK_PATH } from './payments/payments.http.controller';

/** The order-service's HTTP surface: 16 kB bodies, raw bytes for the pay callback, /docs. */
export function configureOrderServiceHttp(app: INestApplication): void {
  configureHttp(app, {
    title: 'order-service',
    description: 'Orders and the payment provider callback',
    bodyLimitBytes: 16 * 1024,
    rawBodyPaths: [PAY_CALLBACK_PATH],
  });
}
