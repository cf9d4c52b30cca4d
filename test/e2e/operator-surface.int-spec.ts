import { randomBytes } from 'node:crypto';
import { freeLoopbackPort, waitFor } from '@outbox-inbox/test-kit';
import { mapConcurrently } from '../../scripts/demo/http-json';
import { ServiceProcess } from '../../scripts/stack/service-process';
import { DatabaseSnapshot, DatabaseSnapshots } from '../support/db-snapshot';
import {
  FuzzRequest,
  OpenApiDocument,
  requestsFor,
  Route,
  routesOf,
} from '../support/openapi-fuzz';
import { MYSQL_URL, ServiceName, TradingStack } from '../support/trading-stack';

// Four services and a few thousand requests on a small shared machine.
jest.setTimeout(300_000);

const SERVICES: ServiceName[] = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
  'coupon-provider',
];
const HEALTH = ['GET /health', 'GET /health/details', 'GET /health/live', 'GET /health/ready'];

/**
 * The routes open without the operator token: a decision, so it is written down here. Every
 * other route of every service must answer 401 without it.
 */
const PUBLIC_ROUTES: Record<ServiceName, string[]> = {
  'order-service': [
    ...HEALTH,
    'POST /orders',
    'GET /orders/{id}',
    'POST /orders/{id}/pay',
    'POST /orders/{id}/cancel',
    'POST /payments/callback',
  ],
  'fulfillment-service': HEALTH,
  'accounting-service': HEALTH,
  'coupon-provider': [
    ...HEALTH,
    'POST /coupons/grants',
    'GET /coupons/grants/stats',
    'GET /coupons/{code}',
    'POST /coupons/{code}/revoke',
  ],
};

/** How many of a route's requests are also sent without the token (each must be 401). */
const WITHOUT_TOKEN_PER_ROUTE = 6;

interface Answer {
  request: FuzzRequest;
  status: number;
  wwwAuthenticate: string | null;
}

const key = (route: Route) => `${route.method} ${route.path}`;

async function send(request: FuzzRequest): Promise<Answer> {
  let status = 0;
  let wwwAuthenticate: string | null = null;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    status = response.status;
    wwwAuthenticate = response.headers.get('www-authenticate');
  } catch {
    // no answer at all (status stays 0): as bad as a 5xx
  }
  return { request, status, wwwAuthenticate };
}

const describeAnswer = (a: Answer) =>
  `${a.status} ${a.request.method} ${a.request.url.slice(0, 120)} (${a.request.label})`;

/**
 * The operator surface against the four services as real processes: authentication of every
 * operator route, and a fuzz of every documented route of every service.
 */
describe('the operator surface', () => {
  let chain: TradingStack;
  let snapshots: DatabaseSnapshots;
  const documents = new Map<ServiceName, OpenApiDocument>();
  const routes = (service: ServiceName) => routesOf(documents.get(service) as OpenApiDocument);
  const token = () => chain.stack.opsApiToken;

  /** Waits until the data stops changing (the pipeline finished what a request started). */
  async function settle(): Promise<DatabaseSnapshot> {
    let previous: string | undefined;
    let current: DatabaseSnapshot = {};
    await waitFor(
      async () => {
        current = await snapshots.read();
        const same = JSON.stringify(current) === previous;
        previous = JSON.stringify(current);
        return same;
      },
      { intervalMs: 400, timeoutMs: 60_000, description: 'the databases at rest' },
    );
    return current;
  }

  beforeAll(async () => {
    // LOG_LEVEL log: Nest logs every route it mounts, which the fuzz compares with the docs.
    const verbose = { LOG_LEVEL: 'log' };
    chain = await TradingStack.start({
      env: Object.fromEntries(SERVICES.map((s) => [s, verbose])),
    });
    const orders = await chain.openOrders(2);
    await chain.pay(orders.slice(0, 1));
    await chain.settled(1);
    for (const service of SERVICES) {
      const response = await fetch(`${chain.url(service)}/docs-json`);
      documents.set(service, (await response.json()) as OpenApiDocument);
    }
    snapshots = await DatabaseSnapshots.open(
      MYSQL_URL,
      ['order_service', 'fulfillment_service', 'accounting_service', 'coupon_provider'].map(
        (database) => `${chain.prefix}${database}`,
      ),
    );
  });

  afterAll(async () => {
    await snapshots?.close();
    await chain?.stop();
  });

  it('documents every route each service mounts, and opens only the public ones', () => {
    for (const service of SERVICES) {
      const mounted = new Set(
        chain.logs
          .filter((line) => line.startsWith(`[${service}]`))
          .flatMap((line) => [...line.matchAll(/Mapped \{([^,]+), (\w+)\} route/g)])
          .map(([, path, method]) => `${method} ${path.replace(/[:*](\w+)/g, '{$1}')}`),
      );
      const documented = routes(service).map(key);
      expect({ service, routes: [...mounted].sort() }).toEqual({
        service,
        routes: [...documented].sort(),
      });
      const open = routes(service)
        .filter((r) => r.isPublic)
        .map(key);
      expect({ service, open: open.sort() }).toEqual({
        service,
        open: [...PUBLIC_ROUTES[service]].sort(),
      });
    }
  });

  it('answers 401 with a Bearer challenge on every operator route without the right token, and changes nothing', async () => {
    const before = await settle();
    const wrong = randomBytes(24).toString('base64url');
    const answers: Answer[] = [];
    for (const service of SERVICES) {
      for (const route of routes(service).filter((r) => !r.isPublic)) {
        const [valid] = requestsFor(chain.url(service), route, documents.get(service)!);
        const withWrong = {
          ...valid,
          headers: { ...valid.headers, authorization: `Bearer ${wrong}` },
        };
        const basicWrong = {
          ...valid,
          headers: {
            ...valid.headers,
            authorization: `Basic ${Buffer.from(`operator:${wrong}`).toString('base64')}`,
          },
        };
        answers.push(await send(valid), await send(withWrong), await send(basicWrong));
      }
    }
    expect(answers.length).toBeGreaterThan(3 * 30);
    expect(answers.filter((a) => a.status !== 401).map(describeAnswer)).toEqual([]);
    expect(
      answers
        .filter((a) => !a.wwwAuthenticate?.includes('Bearer realm="operator"'))
        .map(describeAnswer),
    ).toEqual([]);
    expect(await snapshots.read()).toEqual(before);

    // The right token opens them, as a bearer token or as a browser's Basic password.
    const stats = `${chain.url('fulfillment-service')}/outbox/stats`;
    const basic = Buffer.from(`anyone:${token()}`).toString('base64');
    expect((await fetch(stats, { headers: chain.opsHeaders })).status).toBe(200);
    expect((await fetch(stats, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
    for (const service of SERVICES) {
      expect((await fetch(`${chain.url(service)}/health/ready`)).status).toBe(200);
    }
  });

  it('refuses to start a service without a token, starts it open with OPS_API_INSECURE=true and says so, and mounts the fault API only when switched on', async () => {
    const base = chain.stack.services['coupon-provider'].spec;
    const refused = new ServiceProcess(
      {
        name: 'coupon-provider',
        port: await freeLoopbackPort(),
        env: { ...base.env, OPS_API_TOKEN: '' },
      },
      () => undefined,
    );
    const lines: string[] = [];
    const short = new ServiceProcess(
      {
        name: 'coupon-provider',
        port: await freeLoopbackPort(),
        env: { ...base.env, OPS_API_TOKEN: 'too-short' },
      },
      (line) => lines.push(line),
    );
    refused.start();
    short.start();
    expect(await refused.exitCode()).toBe(78);
    expect(await short.exitCode()).toBe(78);
    expect(lines.join('\n')).toMatch(/OPS_API_TOKEN must be at least 24 characters/);
    expect(lines.join('\n')).not.toMatch(/too-short/);

    const insecure = await chain.spawn('coupon-provider', {
      OPS_API_TOKEN: '',
      OPS_API_INSECURE: 'true',
      COUPON_FAULTS_ENABLED: 'false',
    });
    try {
      expect((await fetch(`${insecure.url}/metrics`)).status).toBe(200);
      const faults = await fetch(`${insecure.url}/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ errorRate: 1 }),
      });
      expect(faults.status).toBe(404);
      expect(chain.logs.some((line) => line.includes('OPS_API_INSECURE=true'))).toBe(true);
    } finally {
      await insecure.stop();
    }
  });

  it('never answers a fuzzed request with a 5xx, and a rejected one changes no data', async () => {
    const answers: Answer[] = [];
    const changedByRejected: Array<{ request: string; changed: string[] }> = [];
    const perRoute = new Map<string, number>();
    let before = await settle();

    for (const service of SERVICES) {
      const document = documents.get(service)!;
      // The fault switch last: a valid PUT /faults may slow or fail the provider's grants.
      const ordered = routes(service).sort(
        (a, b) => Number(a.path === '/faults') - Number(b.path === '/faults'),
      );
      const reads = ordered.filter((r) => r.method === 'GET');
      const writes = ordered.filter((r) => r.method !== 'GET');

      const readRequests = reads.flatMap((route) => [
        ...requestsFor(chain.url(service), route, document, token()),
        ...(route.isPublic
          ? []
          : requestsFor(chain.url(service), route, document).slice(0, WITHOUT_TOKEN_PER_ROUTE)),
      ]);
      answers.push(...(await mapConcurrently(readRequests, 4, send)));
      const afterReads = await snapshots.read();
      if (JSON.stringify(afterReads) !== JSON.stringify(before)) {
        changedByRejected.push({
          request: `GET routes of ${service}`,
          changed: diff(before, afterReads),
        });
        before = await settle();
      }

      for (const route of writes) {
        const requests = [
          ...(route.isPublic
            ? []
            : requestsFor(chain.url(service), route, document).slice(0, WITHOUT_TOKEN_PER_ROUTE)),
          ...requestsFor(chain.url(service), route, document, token()),
        ];
        for (const request of requests) {
          const answer = await send(request);
          answers.push(answer);
          if (answer.status >= 400 && answer.status < 500) {
            const after = await snapshots.read();
            if (JSON.stringify(after) !== JSON.stringify(before)) {
              changedByRejected.push({
                request: describeAnswer(answer),
                changed: diff(before, after),
              });
              before = await settle();
            }
          } else {
            before = await settle(); // a valid operator action may change data, legitimately
          }
        }
      }
      if (writes.some((r) => r.path === '/faults')) {
        await fetch(`${chain.url(service)}/faults`, {
          method: 'PUT',
          headers: { ...chain.opsHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({
            latencyMs: 0,
            errorRate: 0,
            dropReplyRate: 0,
            failNextRequests: 0,
            dropNextReplies: 0,
          }),
        });
      }
    }

    for (const answer of answers) {
      const k = `${answer.request.url.split('/').slice(0, 3).join('/')} ${key(answer.request.route)}`;
      perRoute.set(k, (perRoute.get(k) ?? 0) + 1);
    }
    const documentedRoutes = SERVICES.flatMap((s) =>
      routes(s).map((r) => `${chain.url(s)} ${key(r)}`),
    );
    expect(documentedRoutes.filter((r) => (perRoute.get(r) ?? 0) < 1)).toEqual([]);
    expect(answers.length).toBeGreaterThan(1_000);
    expect(answers.filter((a) => a.status >= 500 || a.status === 0).map(describeAnswer)).toEqual(
      [],
    );
    expect(
      answers
        .filter((a) => !a.request.route.isPublic && !a.request.headers.authorization)
        .filter((a) => a.status !== 401)
        .map(describeAnswer),
    ).toEqual([]);
    expect(changedByRejected).toEqual([]);
  });
});

function diff(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tables]
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
