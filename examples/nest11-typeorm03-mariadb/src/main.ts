import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { InboxTransport } from '@outbox-inbox/inbox';
import { AppModule } from './app.module';

/** Starts the app, the inbox consumer, then HTTP (run the migrations before: `npm run migrate`). */
export async function bootstrap(port = 3000) {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  app.connectMicroservice({ strategy: app.get(InboxTransport) });
  await app.startAllMicroservices();
  await app.listen(port, '127.0.0.1');
  return app;
}

if (require.main === module) void bootstrap(Number(process.env.PORT ?? 3000));
