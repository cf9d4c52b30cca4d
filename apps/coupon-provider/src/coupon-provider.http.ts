import { INestApplication } from '@nestjs/common';
import { configureHttp } from '@app/service-bootstrap';

/** The coupon-provider's HTTP surface: 16 kB bodies, strict validation, /docs. */
export function configureCouponProviderHttp(app: INestApplication): void {
  configureHttp(app, {
    title: 'coupon-provider',
    description: 'The simulated third party: idempotent coupon grants, with injectable faults',
    bodyLimitBytes: 16 * 1024,
  });
}
