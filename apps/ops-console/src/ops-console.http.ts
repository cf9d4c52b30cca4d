import { INestApplication } from '@nestjs/common';
import { configureHttp } from '@app/service-bootstrap';

/** The console's HTTP surface: small JSON bodies (the actions), validation, /docs. */
export function configureOpsConsoleHttp(app: INestApplication): void {
  configureHttp(app, {
    title: 'ops-console',
    description:
      "The operator console: the pipeline's health, the lists and actions of every service, an order's timeline",
    bodyLimitBytes: 16 * 1024,
  });
}
