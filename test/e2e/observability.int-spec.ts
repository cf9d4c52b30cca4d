import { createHmac, randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { freeLoopbackPort, KAFKA_STARTUP_MS, waitFor } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { portVariable, ServiceProcess } from '../../scripts/stack/service-process';
import { Stack } from '../../scripts/stack/start-stack';
import { MYSQL_URL, ServiceName, TradingStack } from '../support/trading-stack';
import { CollectedSpan, OtlpCollector } from './otlp-collector';
import { sampleValue } from './prometheus-text';

const SPAN_KIND = { server: 2, producer: 4, consumer: 5 };

async function countRows(database: string, sql: string): Promise<number> {
  const connection = await createConnection({ uri: `${MYSQL_URL}/${database}` });
  try {
    const [rows] = await connection.query(sql);
    return Number((rows as Array<{ n: number }>)[0].n);
  } finally {
    await connection.end();
  }
}

/** A JSON log line of a service, as captured from its stdout. */
interface LogLine {
  service: string;
  line: Record<string, unknown>;
}

/**
 * Metrics, readiness, JSON logs and traces of the four services run as real processes (built
 * bundles) over real HTTP, the database and the Kafka-protocol broker, with spans exported by
 * OTLP/HTTP to a receiver in this test.
 */
describe('observability, end to end', () => {
  let chain: TradingStack;
  let stack: Stack;
  let collector: OtlpCollector;
  let prefix: string;
  const logs: LogLine[] = [];
  const url = (name: ServiceName) => stack.services[name].url;
  const metrics = async (name: ServiceName) => {
    const response = await fetch(`${url(name)}/metrics`, { headers: chain.opsHeaders });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    collector = await OtlpCollector.start();
    const telemetry = {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'debug',
      HEALTH_CHECK_TIMEOUT_MS: '1000',
    };
    chain = await TradingStack.start({
      // A test takes the broker down: a Kafka of this file's own.
      kafkaFaults: true,
      env: {
        'order-service': { ...telemetry, HEALTH_OUTBOX_MAX_AGE_MS: '1000' },
        'fulfillment-service': telemetry,
        'accounting-service': telemetry,
        'coupon-provider': telemetry,
      },
      log: (text) => {
        const match = /^\[([a-z-]+)\] (\{.*\})$/.exec(text);
        if (!match) return;
        try {
          logs.push({ service: match[1], line: JSON.parse(match[2]) as Record<string, unknown> });
        } catch {
          // a line that only looks like JSON
        }
      },
    });
    stack = chain.stack;
    prefix = chain.prefix;
  }, KAFKA_STARTUP_MS);

  afterAll(async () => {
    await chain?.stop();
    await collector?.stop();
  });

  /** Creates an order, starts its payment and delivers the signed callback under `correlationId`. */
  async function payOrder(correlationId: string): Promise<string> {
    const [paying] = await chain.openOrders(1);
    const notification = chain.provider.notification(paying);
    const rawBody = JSON.stringify(notification);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', stack.payCallbackSecret)
      .update(`${timestamp}.${rawBody}`)
      .digest('hex');
    const response = await fetch(`${url('order-service')}/payments/callback`, {
      method: 'POST',
      body: rawBody,
      headers: {
        'content-type': 'application/json',
        'x-pay-timestamp': timestamp,
        'x-pay-signature': signature,
        'x-correlation-id': correlationId,
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-correlation-id')).toBe(correlationId);
    return paying.id;
  }

  it('follows one paid order by a single trace id and its correlation id through every service, and counts it', async () => {
    const publishedBefore = sampleValue(await metrics('order-service'), 'outbox_published_total');
    const correlationId = `obs-${randomUUID()}`;
    const orderId = await payOrder(correlationId);

    await waitFor(
      async () =>
        (await countRows(
          `${prefix}fulfillment_service`,
          `SELECT COUNT(*) AS n FROM t_fulfillment WHERE order_id = '${orderId}' AND status = 'DONE'`,
        )) === 1,
      { description: 'the order fulfilled' },
    );

    // Traces: the pay callback's server span, the relay's publish span of OrderPaid, and the
    // consumer spans of OrderPaid in fulfillment and accounting share one trace id.
    const callback = await waitFor(
      () =>
        collector.spans.find(
          (s) =>
            s.service === 'order-service' &&
            s.kind === SPAN_KIND.server &&
            s.name === 'POST /payments/callback' &&
            s.attributes['correlation.id'] === correlationId,
        ),
      { description: 'the pay callback span exported' },
    );
    const inTrace = (predicate: (s: CollectedSpan) => boolean) =>
      collector.spans.filter((s) => s.traceId === callback.traceId && predicate(s));
    const consumers = await waitFor(
      () => {
        const found = inTrace(
          (s) => s.kind === SPAN_KIND.consumer && s.name === 'process OrderPaid',
        );
        return found.length === 2 ? found : undefined;
      },
      { description: 'both OrderPaid consumer spans exported in the callback trace' },
    );
    expect(consumers.map((s) => s.service).sort()).toEqual([
      'accounting-service',
      'fulfillment-service',
    ]);
    const publishes = inTrace(
      (s) => s.kind === SPAN_KIND.producer && s.service === 'order-service',
    );
    const publishOfPaid = publishes.find((s) => s.parentSpanId === callback.spanId);
    expect(publishOfPaid?.name).toBe(`publish ${stack.topicPrefix}order.events`);
    for (const consumer of consumers) expect(consumer.parentSpanId).toBe(publishOfPaid?.spanId);
    // FulfillmentDone, written by the fulfillment consumer, stays in the same trace.
    await waitFor(
      () =>
        inTrace(
          (s) =>
            s.service === 'accounting-service' &&
            s.kind === SPAN_KIND.consumer &&
            s.name === 'process FulfillmentDone',
        ).length === 1,
      { description: 'FulfillmentDone consumed in the same trace' },
    );

    // Logs: each consumer's line about the message carries the request's correlation id and
    // the consumer span's trace id.
    for (const service of ['fulfillment-service', 'accounting-service']) {
      const line = await waitFor(
        () =>
          logs.find(
            (l) =>
              l.service === service &&
              l.line.correlationId === correlationId &&
              /^handled OrderPaid:/.test(String(l.line.message)),
          ),
        { description: `${service} logged OrderPaid with the correlation id` },
      );
      expect(line.line).toMatchObject({ service, traceId: callback.traceId, level: 'debug' });
    }

    // Metrics after the traffic.
    const orderMetrics = await metrics('order-service');
    expect(sampleValue(orderMetrics, 'outbox_published_total')).toBeGreaterThanOrEqual(
      (publishedBefore ?? 0) + 3,
    );
    expect(sampleValue(orderMetrics, 'outbox_backlog_rows', { status: 'NEW' })).toBe(0);
    expect(sampleValue(orderMetrics, 'outbox_stats_up')).toBe(1);
    expect(
      sampleValue(orderMetrics, 'http_requests_total', {
        method: 'POST',
        route: '/payments/callback',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sampleValue(orderMetrics, 'http_request_duration_seconds_count', {
        route: '/orders/:id/pay',
      }),
    ).toBe(1);
    expect(sampleValue(orderMetrics, 'process_cpu_seconds_total')).toBeGreaterThan(0);

    const fulfillmentMetrics = await metrics('fulfillment-service');
    // OrderCreated, OrderPaymentStarted and OrderPaid settled; OrderPaid applied.
    expect(sampleValue(fulfillmentMetrics, 'inbox_messages_total')).toBeGreaterThanOrEqual(3);
    expect(
      sampleValue(fulfillmentMetrics, 'inbox_messages_total', { outcome: 'applied' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(fulfillmentMetrics, 'inbox_processing_seconds_count'),
    ).toBeGreaterThanOrEqual(3);
    expect(sampleValue(fulfillmentMetrics, 'outbox_published_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(fulfillmentMetrics, 'inbox_consumer_lag')).toBe(0);
    // Its consumer fetched: the e2e bench reads this to say what the fetch wait costs.
    expect(sampleValue(fulfillmentMetrics, 'inbox_fetch_requests_total')).toBeGreaterThanOrEqual(1);

    const accountingMetrics = await metrics('accounting-service');
    // The three order events and FulfillmentDone settled; OrderPaid and FulfillmentDone applied.
    expect(sampleValue(accountingMetrics, 'inbox_messages_total')).toBeGreaterThanOrEqual(4);
    expect(
      sampleValue(accountingMetrics, 'inbox_messages_total', { outcome: 'applied' }),
    ).toBeGreaterThanOrEqual(2);
    expect(sampleValue(accountingMetrics, 'inbox_dead_lettered_total')).toBe(0);
    expect(sampleValue(accountingMetrics, 'outbox_published_total')).toBe(undefined);
  });

  it('keeps readiness at 200 while the broker is down and the outbox backs up; /health/details says why it is degraded', async () => {
    const ready = async (name: ServiceName) => (await fetch(`${url(name)}/health/ready`)).status;
    const details = async (name: ServiceName) =>
      (await (await fetch(`${url(name)}/health/details`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    await waitFor(async () => (await ready('order-service')) === 200, {
      description: 'order-service ready',
    });
    expect(await ready('accounting-service')).toBe(200);
    expect(await ready('coupon-provider')).toBe(200);
    expect((await fetch(`${url('order-service')}/health/live`)).status).toBe(200);

    await stack.kafka.faults!.allDown();
    try {
      const created = await requestJson<{ id: string }>(`${url('order-service')}/orders`, {
        body: { userId: 'obs-down', amount: 700, currency: 'EUR' },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(created.status).toBe(201);
      // Broker down and an outbox row older than 1 s: shared conditions, shown in details.
      const degraded = await waitFor(
        async () => {
          const answer = await details('order-service');
          return answer.components?.outbox?.status === 'degraded' ? answer : undefined;
        },
        { description: 'order-service details: broker down, outbox row older than 1 s' },
      );
      expect(degraded).toMatchObject({
        status: 'degraded',
        components: {
          database: { status: 'up' },
          broker: { status: 'down' },
          outboxRelay: { status: 'up' },
        },
      });
      expect(degraded.components.outbox.reason).toMatch(/oldest unsent row is \d+ ms old/);
      // ...and not in readiness: each instance can still do its own work.
      expect(await ready('order-service')).toBe(200);
      expect(await ready('accounting-service')).toBe(200);
      expect((await details('accounting-service')).components.broker.status).toBe('down');
      // The OrderCreated row waits, NEW or SENDING (a claimed send that keeps failing).
      const backedUp = await metrics('order-service');
      const unsent = ['NEW', 'SENDING'].map(
        (status) => sampleValue(backedUp, 'outbox_backlog_rows', { status }) ?? 0,
      );
      expect(unsent[0] + unsent[1]).toBeGreaterThanOrEqual(1);
      expect(sampleValue(backedUp, 'outbox_oldest_unsent_age_seconds')).toBeGreaterThan(1);
      expect(sampleValue(backedUp, 'kafka_broker_up')).toBe(0);
    } finally {
      await stack.kafka.faults!.allUp();
    }

    await waitFor(async () => (await details('order-service')).status === 'ok', {
      description: 'order-service details ok again once the backlog is published',
    });
    const drained = await metrics('order-service');
    expect(sampleValue(drained, 'outbox_backlog_rows', { status: 'NEW' })).toBe(0);
    expect(sampleValue(drained, 'outbox_backlog_rows', { status: 'SENDING' })).toBe(0);
    expect(sampleValue(drained, 'outbox_publish_failures_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(await metrics('order-service'), 'kafka_broker_up')).toBe(1);
  });

  it("writes kafkajs's own lines as the same pino JSON as the service's, not in kafkajs's shape", async () => {
    // A fulfillment-service whose broker does not answer: kafkajs logs its connection errors.
    const base = stack.services['fulfillment-service'].spec;
    const port = await freeLoopbackPort();
    const lines: Array<Record<string, unknown>> = [];
    const lonely = new ServiceProcess(
      {
        name: 'fulfillment-service',
        port,
        env: {
          ...base.env,
          [portVariable('fulfillment-service')]: String(port),
          KAFKA_BROKERS: `127.0.0.1:${await freeLoopbackPort()}`,
          LOG_LEVEL: 'log',
        },
      },
      (text) => {
        const json = /^\[fulfillment-service\] (\{.*\})$/.exec(text)?.[1];
        if (json) lines.push(JSON.parse(json) as Record<string, unknown>);
      },
    );
    lonely.start();
    try {
      const kafkajs = await waitFor(() => lines.find((l) => l.context === 'kafkajs'), {
        description: 'a kafkajs line from the fulfillment-service',
      });
      const own = lines.find((l) => l.context !== 'kafkajs' && typeof l.context === 'string');
      expect(own).toBeDefined();
      expect(Object.keys(kafkajs)).toEqual(expect.arrayContaining(Object.keys(own!)));
      expect(kafkajs).toMatchObject({
        level: expect.stringMatching(/^(error|warn)$/),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        service: 'fulfillment-service',
        namespace: expect.any(String),
        message: expect.any(String),
      });
      // Nothing is left in kafkajs's own console shape.
      expect(lines.filter((l) => l.logger === 'kafkajs')).toEqual([]);
    } finally {
      await lonely.stop('SIGKILL');
    }
  });
});
