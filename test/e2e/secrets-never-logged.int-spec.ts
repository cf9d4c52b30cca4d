import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import {
  freeLoopbackPort,
  startTestEnvironment,
  TestDatabase,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { topicForAggregate } from '@app/trading-events';
import { signPayCallback } from '../../apps/order-service/src/payments/pay-callback.signature';
import { migrate, ServiceProcess, ServiceSpec } from '../../scripts/stack/service-process';

/**
 * Issue 36: no secret reaches a log line. The order-service runs as a real process at the most
 * verbose level with every secret it reads, most of them from files, and is driven through the
 * paths that handle them (signed and forged callbacks, operator calls with a right and a wrong
 * token); then no line of its output holds any secret value. A configuration error that
 * concerns a secret names the variable and never the value.
 */
describe('secrets never reach the logs', () => {
  let env: TestEnvironment;
  let database: TestDatabase;
  let dir: string;
  const user = `secrets_${randomBytes(4).toString('hex')}`;
  const secrets = {
    database: `db-${randomBytes(6).toString('hex')}/with:odd@chars`,
    payCallback: `pay-current-${randomBytes(8).toString('hex')}`,
    payCallbackPrevious: `pay-previous-${randomBytes(8).toString('hex')}`,
    opsToken: `ops-token-${randomBytes(12).toString('hex')}`,
    namedToken: `named-token-${randomBytes(12).toString('hex')}`,
  };

  async function asRoot(sql: string): Promise<void> {
    const connection = await createConnection({ uri: env.infra.mysqlUrl });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  }

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, `${text}\n`);
    return path;
  }

  beforeAll(async () => {
    env = await startTestEnvironment();
    database = await env.createDatabase('orders');
    dir = mkdtempSync(join(tmpdir(), 'secrets-never-logged-'));
    // A user of its own with a password, which only DATABASE_PASSWORD_FILE gives the service.
    await asRoot(`CREATE USER '${user}'@'%' IDENTIFIED BY '${secrets.database}'`);
    await asRoot(`GRANT ALL ON \`${database.name}\`.* TO '${user}'@'%'`);
    await env.infra.kafka.createTopics({ [topicForAggregate('Order', topicPrefix)]: 1 });
  });

  afterAll(async () => {
    await asRoot(`DROP USER IF EXISTS '${user}'@'%'`).catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
    await env?.stop();
  });

  const topicPrefix = `secrets.${randomBytes(3).toString('hex')}.`;

  function serviceEnv(): Record<string, string> {
    const server = new URL(env.infra.mysqlUrl);
    return {
      DATABASE_URL: `mysql://${user}@${server.host}/${database.name}`,
      DATABASE_PASSWORD_FILE: file('database-password', secrets.database),
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      TOPIC_PREFIX: topicPrefix,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'verbose',
      PAY_CALLBACK_SECRET_FILE: file('pay-callback-secret', secrets.payCallback),
      PAY_CALLBACK_SECRET_PREVIOUS_FILE: file('pay-callback-previous', secrets.payCallbackPrevious),
      OPS_API_TOKEN_FILE: file('ops-api-token', secrets.opsToken),
      OPS_API_TOKENS: `auditor:${secrets.namedToken}`,
    };
  }

  it('holds no secret value in any line of a service started with them', async () => {
    const variables = serviceEnv();
    const port = await freeLoopbackPort();
    const spec: ServiceSpec = {
      name: 'order-service',
      port,
      env: { ...variables, ORDER_SERVICE_PORT: String(port) },
    };
    await migrate(spec);
    const lines: string[] = [];
    const service = new ServiceProcess(spec, (line) => lines.push(line));
    service.start();
    try {
      await service.waitHealthy();
      const url = service.url;
      const json = { 'content-type': 'application/json' };
      const created = (await (
        await fetch(`${url}/orders`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ userId: 'u-secrets', amount: 1999, currency: 'EUR' }),
        })
      ).json()) as { id: string };
      const pay = await fetch(`${url}/orders/${created.id}/pay`, { method: 'POST' });
      const paying = (await pay.json()) as { id: string; payOrderId: string };
      const body = JSON.stringify({
        notifyId: 'secrets-1',
        payOrderId: paying.payOrderId,
        orderId: paying.id,
        amount: 1999,
        currency: 'EUR',
        status: 'SUCCESS',
        paidAt: '2026-12-07T10:00:00Z',
      });
      const callback = (secret: string) => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        return fetch(`${url}/payments/callback`, {
          method: 'POST',
          headers: {
            ...json,
            'x-pay-timestamp': timestamp,
            'x-pay-signature': signPayCallback(secret, timestamp, Buffer.from(body)),
          },
          body,
        });
      };
      expect((await callback('a-forged-secret-of-16')).status).toBe(401);
      expect((await callback(secrets.payCallbackPrevious)).status).toBe(200);
      expect((await callback(secrets.payCallback)).status).toBe(200);
      const stats = `${url}/outbox/stats`;
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await fetch(stats, { headers: bearer(secrets.opsToken) })).status).toBe(200);
      expect((await fetch(stats, { headers: bearer(secrets.namedToken) })).status).toBe(200);
      expect((await fetch(stats, { headers: bearer(`${secrets.opsToken}x`) })).status).toBe(401);
      // The relay publishes the order's events: its Kafka client ran too.
      await waitFor(async () => {
        const connection = await createConnection({ uri: database.url });
        try {
          const [rows] = await connection.query(
            "SELECT COUNT(*) AS n FROM t_outbox WHERE status <> 'SENT'",
          );
          return Number((rows as Array<{ n: number }>)[0].n) === 0;
        } finally {
          await connection.end();
        }
      });
    } finally {
      await service.stop();
    }
    expect(lines.some((line) => line.includes('listening on'))).toBe(true);
    // At the most verbose level: what a service says below info was written too.
    expect(lines.some((line) => /"level":"(debug|trace)"/.test(line))).toBe(true);
    const leaks = Object.entries(secrets).flatMap(([name, value]) =>
      lines
        .filter((line) => line.includes(value) || line.includes(encodeURIComponent(value)))
        .map((line) => `${name}: ${line}`),
    );
    expect(leaks).toEqual([]);
  });

  it('names the variable of a secret it refuses, and never prints the value', async () => {
    const variables = serviceEnv();
    const refusals: Array<{ env: Record<string, string>; says: RegExp; values: string[] }> = [
      {
        env: { PAY_CALLBACK_SECRET: secrets.payCallback },
        says: /PAY_CALLBACK_SECRET: set both directly and as PAY_CALLBACK_SECRET_FILE/,
        values: [secrets.payCallback],
      },
      {
        env: {
          DATABASE_URL: variables.DATABASE_URL.replace(`${user}@`, `${user}:url-password-1234@`),
        },
        says: /DATABASE_PASSWORD: DATABASE_URL has a password too/,
        values: [secrets.database, 'url-password-1234'],
      },
      {
        env: {
          PAY_CALLBACK_SECRET_PREVIOUS_FILE: file('short', 'short-previous'),
          KAFKA_SASL_MECHANISM: 'kerberos',
          KAFKA_SASL_USERNAME: 'order-service',
          KAFKA_SASL_PASSWORD: 'kafka-password-never-shown',
          OPS_API_TOKEN_FILE: file('short-token', 'short-operator-token'),
        },
        says: /PAY_CALLBACK_SECRET_PREVIOUS[\s\S]*KAFKA_SASL_MECHANISM must be one of|KAFKA_SASL_MECHANISM must be one of[\s\S]*PAY_CALLBACK_SECRET_PREVIOUS/,
        values: ['short-previous', 'kafka-password-never-shown', 'short-operator-token'],
      },
    ];
    for (const refusal of refusals) {
      const port = await freeLoopbackPort();
      const lines: string[] = [];
      const service = new ServiceProcess(
        {
          name: 'order-service',
          port,
          env: { ...variables, ...refusal.env, ORDER_SERVICE_PORT: String(port) },
        },
        (line) => lines.push(line),
      );
      service.start();
      expect(await service.exitCode()).toBe(78);
      const output = lines.join('\n');
      expect(output).toMatch(refusal.says);
      for (const value of [...refusal.values, ...Object.values(secrets)]) {
        expect(output).not.toContain(value);
      }
    }
  });
});
