import { CLUSTER_ADMIN, freeLoopbackPort } from '@outbox-inbox/test-kit';
import { createServer, Server } from 'node:net';
import { runScript } from '../support/run-script';
import { MYSQL_URL, TradingStack } from '../support/trading-stack';
import { startStack } from '../../scripts/stack/start-stack';

// Four services and the ops console start on a small machine shared with other suites.
jest.setTimeout(240_000);

/**
 * The demo driver (docker compose's demo) against a running stack, as a process; on a secured
 * cluster as its admin, as the driver writes copies of events back as Kafka would.
 */
function demoDriver(chain: TradingStack, args: string[] = []) {
  return runScript('scripts/demo-driver.ts', args, {
    ...process.env,
    ...chain.stack.kafkaLoginEnv(CLUSTER_ADMIN),
    ORDER_SERVICE_URL: chain.url('order-service'),
    FULFILLMENT_SERVICE_URL: chain.url('fulfillment-service'),
    ACCOUNTING_SERVICE_URL: chain.url('accounting-service'),
    COUPON_PROVIDER_URL: chain.url('coupon-provider'),
    OPS_CONSOLE_URL: chain.url('ops-console'),
    PAY_CALLBACK_SECRET: chain.stack.payCallbackSecret,
    OPS_API_TOKEN: chain.stack.opsApiToken,
    MYSQL_URL,
    KAFKA_BROKERS: chain.stack.kafkaBrokers.join(','),
    DATABASE_PREFIX: chain.prefix,
    TOPIC_PREFIX: chain.stack.topicPrefix,
    DEMO_ORDERS: '6',
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe('the demo verdict', () => {
  let chain: TradingStack;

  beforeAll(async () => {
    chain = await TradingStack.start({ opsConsole: true });
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('passes a healthy run with its dead letters replayed, and fails naming the check once an order loses its payment journal', async () => {
    const run = await demoDriver(chain, ['--dead-letter-drill']);
    // The 6 orders and the drill's order in CHF, whose two dead letters were replayed.
    expect(lastLine(run.stdout)).toMatch(/^demo: PASS 7 orders .*, 2 dead letters replayed;/);
    expect(run.code).toBe(0);
    const runId = /demo run (\S+)/.exec(run.stdout)![1];
    // Per consumer: every redelivered copy absorbed, one effect per event; the ledger
    // dead-lettered the drill's two events, and applied them when replayed.
    expect(run.stdout).toMatch(/fulfillment-service\s+\d+\s+[1-9]\d*\s+7\s+\d+\s+0\n/);
    expect(run.stdout).toMatch(/accounting-service\s+\d+\s+[1-9]\d*\s+14\s+\d+\s+2\n/);

    const [journal] = await chain.query<{ id: string; order_id: string }>(
      'accounting_service',
      "SELECT id, order_id FROM t_journal WHERE kind = 'PAYMENT' ORDER BY id LIMIT 1",
    );
    await chain.query('accounting_service', 'DELETE FROM t_journal_line WHERE journal_id = ?', [
      journal.id,
    ]);
    await chain.query('accounting_service', 'DELETE FROM t_journal WHERE id = ?', [journal.id]);

    const judged = await demoDriver(chain, ['--judge', runId]);
    expect(lastLine(judged.stdout)).toMatch(
      new RegExp(
        `^demo: FAIL one-payment-journal-per-order: orders without exactly one PAYMENT journal: ${journal.order_id} \\(0\\)`,
      ),
    );
    // The invariant checker saw it too, and names its rule.
    expect(judged.stdout).toContain('failed invariant paid-order-has-one-payment-journal');
    expect(judged.code).toBe(1);
  });
});

describe('a service that cannot start', () => {
  let squatter: Server;

  afterEach(async () => {
    await new Promise((resolve) => squatter?.close(resolve));
  });

  it('is reported with the cause and its own last output lines', async () => {
    const port = await freeLoopbackPort();
    // Takes the port, and hangs up on whoever calls (the stack polls /health meanwhile).
    squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    const prefix = `t${Date.now().toString(36)}_`;
    const started = startStack({
      databasePrefix: prefix,
      topicPrefix: prefix.replace(/_/g, '.'),
      ports: {
        'order-service': port,
        'fulfillment-service': await freeLoopbackPort(),
        'accounting-service': await freeLoopbackPort(),
        'coupon-provider': await freeLoopbackPort(),
      },
      log: () => undefined,
    });
    const error = (await started.then(
      () => new Error('the stack started'),
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `order-service exited while starting \\(1\\): port ${port} is in use \\(set ORDER_SERVICE_PORT`,
      ),
    );
    expect(error.message).toMatch(/\| .*EADDRINUSE/);
    await dropDatabases(prefix);
  });
});

async function dropDatabases(prefix: string): Promise<void> {
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({ uri: MYSQL_URL });
  try {
    for (const db of [
      'order_service',
      'fulfillment_service',
      'accounting_service',
      'coupon_provider',
    ])
      await connection.query(`DROP DATABASE IF EXISTS \`${prefix}${db}\``);
  } finally {
    await connection.end();
  }
}
