import { TcpProxy, waitFor } from '@outbox-inbox/test-kit';
import { MYSQL_URL, PayingOrder, ServiceName, TradingStack } from '../support/trading-stack';

/**
 * The operator surface during a database outage (issue 30, items 8 and 9), against the four
 * services as real processes at their most verbose log level: every operator read route
 * answers from what the service knows (503 with a `degraded` cause, never a 500) while the
 * database is cut through a TCP proxy for 30 s and a consumer is blocked, and answers normally
 * after; and no log line of any service carries the operator token, in clear or as the base64
 * of Basic credentials, whatever requests were sent (good, bad, failing with a 5xx).
 */

// Four services on a small machine shared with other suites: the waits below bound each step.
jest.setTimeout(600_000);

const CUT_MS = Number(process.env.OUTAGE_MS ?? 30_000);
const VERBOSE = { LOG_LEVEL: 'verbose' };

let stack: TradingStack;
/** The consumers' database (fulfillment, accounting), cut first so that they block. */
let consumerDb: TcpProxy;
/** The order-service's and the coupon provider's database, cut once a consumer is blocked. */
let otherDb: TcpProxy;
let token: string;
let order: PayingOrder;

/** What a route must answer during the cut, given its status and body. */
type Check = (status: number, body: Record<string, unknown>) => void;

interface Route {
  service: ServiceName | 'ops-console';
  path: () => string;
  duringCut: Check;
}

function degraded(known: Check = () => undefined): Check {
  return (status, body) => {
    expect({ status, body }).toMatchObject({
      status: 503,
      body: {
        statusCode: 503,
        degraded: { cause: { code: expect.any(String), message: expect.any(String) } },
      },
    });
    known(status, body);
  };
}

const blockedInbox = (consumer: string) =>
  degraded((_status, body) => {
    expect(body).toMatchObject({
      consumer,
      sinceStart: { applied: expect.any(Number), retries: expect.any(Number) },
      blocked: { seconds: expect.any(Number) },
    });
    const { partitions } = body.blocked as { partitions: Array<{ lastError: string }> };
    expect(partitions.length).toBeGreaterThan(0);
  });

const outboxStats = (withRelay: boolean) =>
  degraded((_status, body) => {
    expect(body.deadPolicy).toEqual(expect.any(String));
    if (withRelay) expect(body.relay).toEqual(expect.any(Object));
  });

const ROUTES: Route[] = [
  { service: 'order-service', path: () => '/outbox/stats', duringCut: outboxStats(true) },
  { service: 'order-service', path: () => '/outbox/dead', duringCut: degraded() },
  {
    service: 'order-service',
    path: () => `/outbox/aggregates/Order/${order.id}`,
    duringCut: degraded(),
  },
  { service: 'order-service', path: () => `/orders/${order.id}/history`, duringCut: degraded() },
  { service: 'order-service', path: () => '/orders?status=stuck', duringCut: degraded() },
  {
    // The console has no database: it shows the order-service's outbox as unavailable.
    service: 'ops-console',
    path: () => '/ops/pipeline',
    duringCut: (status, body) =>
      expect({ status, own: (body.outbox as Record<string, unknown>)['order-service'] }).toEqual({
        status: 200,
        own: { status: 'unavailable', error: expect.any(String) },
      }),
  },
  { service: 'fulfillment-service', path: () => '/outbox/stats', duringCut: outboxStats(true) },
  { service: 'fulfillment-service', path: () => '/outbox/dead', duringCut: degraded() },
  {
    service: 'fulfillment-service',
    path: () => '/inbox/stats',
    duringCut: blockedInbox('fulfillment-service'),
  },
  {
    service: 'fulfillment-service',
    path: () => `/inbox/deliveries?aggregate=Order:${order.id}`,
    duringCut: degraded(),
  },
  { service: 'fulfillment-service', path: () => '/fulfillments/stats', duringCut: degraded() },
  { service: 'fulfillment-service', path: () => '/fulfillments/stuck', duringCut: degraded() },
  {
    service: 'fulfillment-service',
    path: () => `/fulfillments/orders/${order.id}`,
    duringCut: degraded(),
  },
  {
    service: 'fulfillment-service',
    path: () => `/fulfillments/orders/${order.id}/timeline`,
    duringCut: degraded(),
  },
  {
    service: 'accounting-service',
    path: () => '/inbox/stats',
    duringCut: blockedInbox('accounting-service'),
  },
  {
    service: 'accounting-service',
    path: () => `/inbox/deliveries?aggregate=Order:${order.id}`,
    duringCut: degraded(),
  },
  { service: 'accounting-service', path: () => '/ledger/accounts', duringCut: degraded() },
  {
    service: 'accounting-service',
    path: () => `/ledger/orders/${order.id}`,
    duringCut: degraded(),
  },
  { service: 'accounting-service', path: () => '/ledger/reconciliation', duringCut: degraded() },
  {
    service: 'accounting-service',
    path: () => `/ledger/orders/${order.id}/timeline`,
    duringCut: degraded(),
  },
  { service: 'coupon-provider', path: () => '/coupons/grants/stats', duringCut: degraded() },
];
// The dead-letter lists come from the broker, which stays up: the list as the topic holds it.
for (const service of ['fulfillment-service', 'accounting-service'] as const) {
  ROUTES.push({
    service,
    path: () => '/inbox/dead-letters',
    duringCut: degraded((_status, body) => expect(body.deadLetters).toEqual([])),
  });
}

/** The credentials of the operator token, each way a caller can present them. */
function credentials(): Record<string, string> {
  return {
    bearer: `Bearer ${token}`,
    basic: `Basic ${Buffer.from(`ops:${token}`).toString('base64')}`,
  };
}

async function get(
  route: Route,
  authorization: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${stack.url(route.service)}${route.path()}`, {
    headers: { authorization },
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

/** Good and bad operator requests, and ones that fail with a 5xx while the database is cut. */
async function sendEveryKindOfRequest(): Promise<number[]> {
  const statuses: number[] = [];
  const base = stack.url('fulfillment-service');
  const wrong = Buffer.from(`ops:${token}x`).toString('base64');
  for (const authorization of [
    ...Object.values(credentials()),
    `Bearer ${token}x`,
    `Basic ${wrong}`,
    `Basic ${Buffer.from(token).toString('base64')}`,
  ]) {
    for (const [method, path] of [
      ['GET', `/inbox/stats?token=${token}&access_token=${token}`],
      ['POST', '/outbox/prune'],
      ['POST', '/inbox/prune'],
    ]) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          cookie: `session=${token}`,
          'content-type': 'application/json',
        },
        body: method === 'POST' ? JSON.stringify({ olderThanMs: 1000 }) : undefined,
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
  }
  return statuses;
}

beforeAll(async () => {
  const server = new URL(MYSQL_URL);
  const target = { host: server.hostname, port: Number(server.port || 3306) };
  consumerDb = await TcpProxy.start(target);
  otherDb = await TcpProxy.start(target);
  stack = await TradingStack.start({
    opsConsole: true,
    databaseVia: {
      'order-service': otherDb.address,
      'coupon-provider': otherDb.address,
      'fulfillment-service': consumerDb.address,
      'accounting-service': consumerDb.address,
    },
    env: {
      'order-service': VERBOSE,
      'fulfillment-service': VERBOSE,
      'accounting-service': VERBOSE,
      'coupon-provider': VERBOSE,
    },
  });
  token = stack.stack.opsApiToken;
});

afterAll(async () => {
  await stack?.stop();
  await consumerDb?.stop();
  await otherDb?.stop();
});

describe('the operator read routes, while the database is cut for 30 s', () => {
  it('answer from what each service knows, with the cause, never 500; normally after', async () => {
    await consumerDb.cut();
    [order] = await stack.openOrders(1);
    expect(await stack.pay([order])).toEqual([200]);
    // The consumers cannot record the OrderPaid: once their in-place retries are spent, their
    // partition blocks (each consumer on its own clock).
    for (const consumer of ['fulfillment-service', 'accounting-service']) {
      const stats = ROUTES.find((r) => r.service === consumer && r.path() === '/inbox/stats')!;
      await waitFor(
        async () => {
          const { body } = await get(stats, credentials().bearer);
          return ((body.blocked as { partitions?: unknown[] })?.partitions?.length ?? 0) > 0;
        },
        { timeoutMs: 60_000, description: `the ${consumer} consumer blocked` },
      );
    }
    await otherDb.cut();
    const cutAt = Date.now();
    let rounds = 0;
    const failingStatuses: number[] = [];
    try {
      while (Date.now() - cutAt < CUT_MS) {
        rounds += 1;
        const authorization = Object.values(credentials())[rounds % 2];
        for (const route of ROUTES) {
          const { status, body } = await get(route, authorization);
          expect(status).not.toBe(500);
          route.duringCut(status, body);
        }
        failingStatuses.push(...(await sendEveryKindOfRequest()));
      }
    } finally {
      await Promise.all([consumerDb.heal(), otherDb.heal()]);
    }
    expect(rounds).toBeGreaterThan(1);
    // Good credentials: 503 (read from memory) and 500 (prune needs the database); bad: 401.
    expect(new Set(failingStatuses)).toEqual(new Set([503, 500, 401]));

    await waitFor(
      async () => {
        for (const route of ROUTES) {
          const { status, body } = await get(route, credentials().basic);
          if (status !== 200 || 'degraded' in body) return false;
          if ('blocked' in body && (body.blocked as { partitions: unknown[] }).partitions.length)
            return false;
        }
        return true;
      },
      { timeoutMs: 90_000, description: 'every operator read route answers normally' },
    );
    await stack.settled(1);
  });
});

describe('the logs of every service, at the most verbose level', () => {
  it('never carry the operator token, in clear or as Basic credentials', async () => {
    expect(await sendEveryKindOfRequest()).toContain(200);
    const secrets = [
      token,
      Buffer.from(`ops:${token}`).toString('base64'),
      Buffer.from(`ops:${token}x`).toString('base64'),
      Buffer.from(token).toString('base64'),
    ];
    await waitFor(
      () => stack.logs.some((line) => line.includes('/outbox/prune') && line.includes('"res"')),
      { description: 'the access lines of the last requests written' },
    );
    const leaks = stack.logs.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
    // The requests were logged, with their credentials redacted, not left out.
    const redacted = stack.logs.filter((line) => line.includes('"authorization":"[Redacted]"'));
    expect(redacted.length).toBeGreaterThan(0);
    expect(stack.logs.some((line) => line.includes('"cookie":"[Redacted]"'))).toBe(true);
    expect(stack.logs.some((line) => line.includes('token=[Redacted]'))).toBe(true);
    // A 5xx was logged at error level, with its request.
    expect(
      stack.logs.some((line) => line.includes('"level":"error"') && line.includes('"req"')),
    ).toBe(true);
  });
});
