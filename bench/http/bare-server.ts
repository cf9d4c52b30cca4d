/**
 * A bare HTTP endpoint in its own process, for bench:http: `nest` serves GET /ping from a Nest
 * controller, `express` from a plain Express handler on the Express instance of the same
 * adapter (@nestjs/platform-express). Prints "PORT <n>" once listening; SIGTERM stops it.
 */
import 'reflect-metadata';
import { createServer, Server } from 'node:http';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

@Controller()
class PingController {
  @Get('ping')
  ping(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

interface ExpressLike {
  get(path: string, handler: (req: unknown, res: { json(body: unknown): void }) => void): void;
}

async function listen(kind: string): Promise<{ server: Server; close: () => Promise<void> }> {
  if (kind === 'nest') {
    const app = await NestFactory.create(PingModule, new ExpressAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    return { server: app.getHttpServer() as Server, close: () => app.close() };
  }
  if (kind === 'express') {
    const express = new ExpressAdapter().getInstance() as ExpressLike;
    express.get('/ping', (_req, res) => res.json({ ok: true }));
    const server = createServer(express as unknown as Parameters<typeof createServer>[0]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      server,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
  throw new Error(`usage: bare-server.ts nest|express (got ${kind})`);
}

async function main(): Promise<void> {
  const { server, close } = await listen(process.argv[2]);
  const address = server.address();
  process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
