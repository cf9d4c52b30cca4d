import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { InboxTransport } from '@outbox-inbox/inbox';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';

/** Starts the app: migrations, the inbox consumer, then HTTP (the /outbox and /inbox routes). */
export async function bootstrap(port = 3000) {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  try {
    await app.get(DataSource).runMigrations({ transaction: 'each' });
    app.connectMicroservice({ strategy: app.get(InboxTransport) });
    await app.startAllMicroservices();
    await app.listen(port, '127.0.0.1');
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

if (require.main === module) void bootstrap(Number(process.env.PORT ?? 3000));
