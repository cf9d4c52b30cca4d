import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { freeLoopbackPort, TestEnvironment } from '@outbox-inbox/test-kit';
import { migrate, serviceMain, ServiceProcess } from '../../scripts/stack/service-process';
import { cpuProfileEnv } from './cpu-profile-env';
import { createNamedTopics } from './topics';

/** Throws, naming the fix, when a service's build output is missing. */
export function requireBuild(...names: Parameters<typeof serviceMain>[0][]): void {
  for (const name of names) {
    if (!existsSync(serviceMain(name))) {
      throw new Error(`${serviceMain(name)} is missing: run "npm run build" first`);
    }
  }
}

/**
 * The real order-service process (dist/apps/order-service/main.js, as the Docker image runs
 * it) on its own database in `env`, its own topic prefix and a free loopback port; migrated
 * and healthy when this resolves. `BENCH_CPU_PROF=<dir>` makes it write a V8 CPU profile
 * there when it stops.
 */
export async function startOrderService(
  env: TestEnvironment,
  secret: string,
): Promise<{ service: ServiceProcess; databaseUrl: string }> {
  requireBuild('order-service');
  const database = await env.createDatabase('bench_order_service');
  const topicPrefix = `bench.${randomBytes(4).toString('hex')}.`;
  await createNamedTopics(env.infra, { [`${topicPrefix}order.events`]: 6 });
  const port = await freeLoopbackPort();
  const service = new ServiceProcess(
    {
      name: 'order-service',
      port,
      env: {
        DATABASE_URL: database.url,
        KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
        TOPIC_PREFIX: topicPrefix,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ORDER_SERVICE_PORT: String(port),
        PAY_CALLBACK_SECRET: secret,
        OPS_API_TOKEN: randomBytes(24).toString('base64url'),
        ...cpuProfileEnv(),
      },
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  await migrate({ ...service.spec, env: { ...service.spec.env, NODE_OPTIONS: '' } });
  service.start();
  try {
    await service.waitHealthy();
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { service, databaseUrl: database.url };
}
