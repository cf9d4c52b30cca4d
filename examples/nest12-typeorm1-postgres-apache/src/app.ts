import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InboxTransport } from '@outbox-inbox/inbox';
import { AppModule } from './app.module.js';

/** Starts the app (its migrations run first), the inbox consumer, then HTTP on `port`. */
export async function bootstrap(port: number): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  app.connectMicroservice({ strategy: app.get(InboxTransport) });
  await app.startAllMicroservices();
  await app.listen(port, '127.0.0.1');
  return app;
}
