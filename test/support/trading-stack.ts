import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import {
  checkInvariants,
  CheckOptions,
  InvariantReport,
  invariantTargets,
  InvariantTargets,
} from '@app/trading-checker';
import { freeLoopbackPort, waitFor } from '@outbox-inbox/test-kit';
import { OPS_PRINCIPAL } from '../../scripts/stack/stack-kafka-access';
import { mapConcurrently, requestJson } from '../../scripts/demo/http-json';
import { SimulatedPayProvider } from '../../scripts/demo/pay-provider';
import { portVariable, serviceMain, ServiceProcess } from '../../scripts/stack/service-process';
import { Stack, startStack, StackOptions } from '../../scripts/stack/start-stack';
import { TestLog } from './test-log';

export type ServiceName = keyof Stack['services'];
export type ServiceDatabase =
  'order_service' | 'fulfillment_service' | 'accounting_service' | 'coupon_provider';

const SERVICES: ServiceName[] = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
  'coupon-provider',
];
const DATABASES: ServiceDatabase[] = [
  'order_service',
  'fulfillment_service',
  'accounting_service',
  'coupon_provider',
];

export const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(
  /\/+$/,
  '',
);

/** An order moved to PAYING, ready for its payment notification. */
export interface PayingOrder {
  id: string;
  payOrderId: string;
  amount: number;
  currency: string;
}

/** Consumer groups that notice a dead member in seconds, not kafkajs's default 30. */
const FAST_GROUP = {
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  KAFKA_HEARTBEAT_INTERVAL_MS: '500',
  KAFKA_FETCH_MAX_WAIT_MS: '100',
};

/** Fast retry timings so that tests settle in seconds. */
const FAST_FULFILLMENT = {
  ...FAST_GROUP,
  FULFILLMENT_RETRY_BASE_MS: '50',
  FULFILLMENT_RETRY_MAX_MS: '300',
  FULFILLMENT_RETRY_POLL_MS: '50',
  COUPON_PROVIDER_TIMEOUT_MS: '1000',
};

/**
 * The four services as real processes from dist/ (as the Docker images run them) on free
 * ports, with their own databases and topics, and what tests do with them: open orders, pay,
 * wait for the chain to settle, run more instances, check the invariants.
 */
export class TradingStack {
  readonly provider: SimulatedPayProvider;
  private readonly extras: ServiceProcess[] = [];

  private constructor(
    readonly stack: Stack,
    readonly prefix: string,
    private readonly log: TestLog,
  ) {
    this.provider = new SimulatedPayProvider(this.url('order-service'), stack.payCallbackSecret);
  }

  /** Every output line of the services so far, prefixed with the service's name. */
  get logs(): string[] {
    return this.log.lines;
  }

  /**
   * `env` is added per service to the fast test timings below; `log`, when given, sees every
   * output line of the services too (they are kept in `logs` either way).
   */
  static async start(
    options: {
      env?: StackOptions['env'];
      log?: (line: string) => void;
      /** `host:port` a service reaches the database server through (a TcpProxy), per service. */
      databaseVia?: Partial<Record<ServiceName, string>>;
      /** The test takes every broker down or slows them (`stack.kafka.faults`). */
      kafkaFaults?: boolean;
      /** The test injects protocol errors only the mock can: a mock whatever KAFKA says. */
      kafkaMockOnly?: boolean;
      /** A Kafka the caller runs (and may break), instead of the one the KAFKA switch names. */
      kafkaBrokers?: string[];
      /** How long each service may take to answer /health after it starts. Default 60 s. */
      startTimeoutMs?: number;
      /**
       * The prefix of the databases (`_` separated) and, dots for underscores, of the topics,
       * when the test must know it first (to apply a secured cluster's ACLs). Default: random.
       */
      prefix?: string;
      /** The topics exist already (the operator step made them): the stack creates none. */
      kafkaTopicsReady?: boolean;
      /** Start the ops console too (`url('ops-console')`). */
      opsConsole?: boolean;
    } = {},
  ): Promise<TradingStack> {
    for (const name of [...SERVICES, ...(options.opsConsole ? ['ops-console' as const] : [])]) {
      if (!existsSync(serviceMain(name)))
        throw new Error(`${serviceMain(name)} is missing: run "npm run build"`);
    }
    const prefix = options.prefix ?? `t${randomBytes(3).toString('hex')}_`;
    const log = new TestLog(prefix);
    try {
      const env: StackOptions['env'] = { ...options.env };
      Object.assign(env, {
        'fulfillment-service': { ...FAST_FULFILLMENT, ...env['fulfillment-service'] },
        'accounting-service': { ...FAST_GROUP, ...env['accounting-service'] },
      });
      const ports: Partial<Record<ServiceName, number>> = {};
      for (const name of SERVICES) ports[name] = await freeLoopbackPort();
      const consolePort = options.opsConsole ? await freeLoopbackPort() : undefined;
      const stack = await startStack({
        databasePrefix: prefix,
        databaseVia: options.databaseVia,
        topicPrefix: prefix.replace(/_/g, '.'),
        ports: { ...ports, ...(consolePort && { 'ops-console': consolePort }) },
        opsConsole: options.opsConsole ?? false,
        env,
        kafkaFaults: options.kafkaFaults,
        kafkaMockOnly: options.kafkaMockOnly,
        kafkaBrokers: options.kafkaBrokers,
        kafkaTopicsReady: options.kafkaTopicsReady,
        startTimeoutMs: options.startTimeoutMs,
        log: (line) => {
          log.line(line);
          options.log?.(line);
        },
      });
      return new TradingStack(stack, prefix, log);
    } catch (error) {
      await log.close();
      throw error;
    }
  }

  /** The base URL of a service, or of the ops console when the stack was started with it. */
  url(name: ServiceName | 'ops-console'): string {
    if (name !== 'ops-console') return this.stack.services[name].url;
    if (!this.stack.opsConsole) throw new Error('the stack was started without the ops console');
    return this.stack.opsConsole.url;
  }

  /** `Authorization: Bearer <token>` for the operator routes of this stack's services. */
  get opsHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.stack.opsApiToken}` };
  }

  async query<T = Record<string, unknown>>(
    database: ServiceDatabase | '',
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const connection = await createConnection({
      uri: `${MYSQL_URL}/${database && this.prefix + database}`,
    });
    try {
      const [rows] = await connection.query(sql, params);
      return rows as T[];
    } finally {
      await connection.end();
    }
  }

  /** `SELECT COUNT(*) AS n ...` as a number. */
  async count(database: ServiceDatabase, sql: string, params: unknown[] = []): Promise<number> {
    const [row] = await this.query<{ n: number | string }>(database, sql, params);
    return Number(row.n);
  }

  /** Creates `count` orders and starts their payment (CREATED → PAYING). */
  async openOrders(count: number, concurrency = 6): Promise<PayingOrder[]> {
    const base = this.url('order-service');
    return mapConcurrently(Array.from({ length: count }), concurrency, async (_, i) => {
      const created = await requestJson<{ id: string }>(`${base}/orders`, {
        body: { userId: `u${i % 7}`, amount: 500 + i, currency: 'EUR' },
        headers: { 'idempotency-key': randomUUID() },
      });
      if (created.status !== 201) throw new Error(`POST /orders: ${created.status}`);
      const paying = await requestJson<PayingOrder>(`${base}/orders/${created.body.id}/pay`, {
        method: 'POST',
      });
      if (paying.status !== 200) throw new Error(`POST /orders/:id/pay: ${paying.status}`);
      return paying.body;
    });
  }

  /**
   * Delivers each order's success notification until it is acknowledged, as a provider does
   * (a 5xx or a lost connection is retried; anything else is returned).
   */
  async pay(orders: PayingOrder[], concurrency = 6): Promise<number[]> {
    return mapConcurrently(orders, concurrency, async (order) => {
      const notification = this.provider.notification(order);
      for (;;) {
        const status = await this.provider.deliver(notification).catch(() => 0);
        if (status !== 0 && status < 500) return status;
      }
    });
  }

  /**
   * Waits until `paid` orders are fulfilled, booked, and both outboxes are drained; on a
   * timeout the error names the counts that fell short.
   */
  async settled(paid: number, timeoutMs = 90_000): Promise<void> {
    const expected: Array<[string, ServiceDatabase, string, number]> = [
      [
        'fulfilled',
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE'",
        paid,
      ],
      [
        'payment journals',
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'PAYMENT'",
        paid,
      ],
      [
        'coupon journals',
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'COUPON_GRANT'",
        paid,
      ],
      [
        'order outbox unsent',
        'order_service',
        "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW','SENDING')",
        0,
      ],
      [
        'fulfillment outbox unsent',
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW','SENDING')",
        0,
      ],
    ];
    await waitFor(
      async () => {
        const short: string[] = [];
        for (const [what, database, sql, want] of expected) {
          const n = await this.count(database, sql);
          if (n !== want) short.push(`${what} ${n} (want ${want})`);
        }
        if (short.length > 0) throw new Error(short.join(', '));
        return true;
      },
      { timeoutMs, description: `${paid} orders fulfilled and booked, outboxes drained` },
    );
  }

  /** The deployment as the checker sees it: on a secured cluster, as the operators' principal. */
  targets(): InvariantTargets {
    const { kafka, kafkaSecured } = this.stack;
    return invariantTargets({
      mysqlUrl: MYSQL_URL,
      kafkaBrokers: this.stack.kafkaBrokers,
      ...(kafkaSecured && { kafkaSecurity: kafka.cluster!.clientSecurity(OPS_PRINCIPAL) }),
      databasePrefix: this.prefix,
      topicPrefix: this.stack.topicPrefix,
    });
  }

  /** The invariant checker over this deployment; at rest by default. */
  invariants(options: CheckOptions = { quiescent: true }): Promise<InvariantReport> {
    return checkInvariants(this.targets(), options);
  }

  /** The checker at rest, asserting that no promise is broken; returns the report. */
  async expectInvariantsHold(): Promise<InvariantReport> {
    const report = await this.invariants();
    expect(report.violations).toEqual([]);
    return report;
  }

  /**
   * Starts one more instance of a service (same group, same database) on a free port; resolves
   * once it is ready (its consumer joined), or at once with `untilReady: false`.
   */
  async spawn(
    name: ServiceName,
    env: Record<string, string> = {},
    { untilReady = true }: { untilReady?: boolean } = {},
  ): Promise<ServiceProcess> {
    const base = this.stack.services[name].spec;
    const port = await freeLoopbackPort();
    const extra = new ServiceProcess(
      {
        name,
        port,
        env: { ...base.env, [portVariable(name)]: String(port), ...env },
      },
      this.log.line,
    );
    this.extras.push(extra);
    extra.start();
    if (untilReady) await extra.waitHealthy();
    return extra;
  }

  /** Stops every process and drops the databases and their users. */
  async stop(): Promise<void> {
    try {
      await Promise.all(this.extras.map((p) => p.stop('SIGKILL')));
      await this.stack.stop();
      for (const database of DATABASES)
        await this.query('', `DROP DATABASE IF EXISTS \`${this.prefix}${database}\``).catch(
          () => undefined,
        );
    } finally {
      await this.log.close();
    }
  }
}
