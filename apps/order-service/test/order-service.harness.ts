import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { serviceConfig } from '@app/config';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { serviceRoot } from '@app/service-bootstrap';
import { TEST_OPS_API_TOKEN, TestDatabase, TestEnvironment } from '@outbox-inbox/test-kit';
import { createServiceUser } from '@app/trading-test-kit';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { OrderMigrations } from '../src/migrations';
import { OrderServiceConfig } from '../src/order-service.config';
import { configureOrderServiceHttp } from '../src/order-service.http';
import { OrderServiceModule } from '../src/order-service.module';
import { signPayCallback } from '../src/payments/pay-callback.signature';

/** The callback secret the test app is configured with. */
export const TEST_PAY_SECRET = 'test-pay-callback-secret';

/** A running order-service on a loopback port, with its own database. */
export interface RunningOrderService {
  baseUrl: string;
  /** The service's own DataSource: its least-privilege user (no DDL). */
  dataSource: DataSource;
  /** Its database: pass it as `database` to start the service again on the same data. */
  database: TestDatabase;
  /** The database as its owner (the one that migrated it): for a test that changes the schema. */
  owner: DataSource;
  close(): Promise<void>;
}

/**
 * Starts the order-service as production does (same module, same HTTP set-up) on port 0,
 * against a fresh database with its migrations applied by its owner, as its own user with the
 * grants deploy/mysql/service-users.sql gives it (dropped on close). The outbox relay stays off unless
 * asked for: most tests assert the outbox rows the requests wrote. `writerOnly` starts it as
 * a writer-only deployment does: OUTBOX_RELAY_ENABLED=false and no KAFKA_BROKERS.
 * `database` restarts it on an earlier start's database (a restart with new settings);
 * `variables` are set over the test's own (PAY_CALLBACK_SECRET and the like).
 */
export async function startOrderService(
  env: TestEnvironment,
  options: {
    outboxRelay?: boolean;
    topicPrefix?: string;
    writerOnly?: boolean;
    database?: TestDatabase;
    variables?: Record<string, string>;
  } = {},
): Promise<RunningOrderService> {
  const database = options.database ?? (await env.createDatabase('orders'));
  const user = await createServiceUser(database.url, 'order_service');
  const config = await serviceConfig(OrderServiceConfig, {
    DATABASE_URL: user.url,
    // writerOnly: as a deployment whose instances only take requests, with no Kafka settings.
    ...(options.writerOnly
      ? { OUTBOX_RELAY_ENABLED: 'false' }
      : { KAFKA_BROKERS: env.infra.kafkaBrokers.join(',') }),
    PAY_CALLBACK_SECRET: TEST_PAY_SECRET,
    DB_POOL_SIZE: '20',
    OPS_API_TOKEN: TEST_OPS_API_TOKEN,
    ...(options.topicPrefix !== undefined && { TOPIC_PREFIX: options.topicPrefix }),
    ...options.variables,
  });
  // Migrate first, as `main.js migrate` does before a deployment, so the relay finds its table.
  const owner = await openMysqlDataSource({
    url: database.url,
    migrations: OrderMigrations,
    poolSize: 2,
  });
  await owner.runMigrations();
  const app: INestApplication = await NestFactory.create(
    serviceRoot(config, OrderServiceModule.forRoot({ outboxRelay: options.outboxRelay ?? false })),
    { logger: ['error'] },
  );
  configureOrderServiceHttp(app);
  await app.listen(0, '127.0.0.1');
  const dataSource = app.get(DataSource);
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataSource,
    database,
    owner,
    close: async () => {
      await app.close();
      await owner.destroy();
      await user.drop();
    },
  };
}

/** A response with its parsed JSON body (undefined when the body is not JSON). */
export interface JsonResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** POSTs (or GETs) and reads the whole answer. */
export async function request(
  url: string,
  init: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    body: init.body,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** Sends a pay callback signed like the provider does (or tampered with, through `options`). */
export function sendCallback(
  baseUrl: string,
  body: string | Buffer,
  options: { timestamp?: number; secret?: string; signedBody?: string | Buffer } = {},
): Promise<JsonResponse> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signed = Buffer.from(options.signedBody ?? body);
  const signature = signPayCallback(options.secret ?? TEST_PAY_SECRET, timestamp, signed);
  return request(`${baseUrl}/payments/callback`, {
    body,
    headers: { 'x-pay-timestamp': timestamp, 'x-pay-signature': signature },
  });
}

/** The outbox rows of one order, in version order. */
export async function outboxRowsOf(
  dataSource: DataSource,
  orderId: string,
): Promise<Array<{ eventType: string; version: number; payload: Record<string, unknown> }>> {
  const rows: Array<{ event_type: string; aggregate_version: number; payload: string | object }> =
    await dataSource.query(
      `SELECT event_type, aggregate_version, payload FROM t_outbox
        WHERE aggregate_type = 'Order' AND aggregate_id = ? ORDER BY aggregate_version, id`,
      [orderId],
    );
  return rows.map((row) => {
    const envelope = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
      payload: Record<string, unknown>;
    };
    return {
      eventType: row.event_type,
      version: Number(row.aggregate_version),
      payload: envelope.payload,
    };
  });
}
