import { topicForAggregate } from '@app/trading-events';
import { KafkaBroker } from '@outbox-inbox/test-kit';
import { Pool } from 'mysql2/promise';
import { mapConcurrently } from '../../../scripts/demo/http-json';
import { openLedgerAccounts } from '../raw-chain';
import {
  createRawChainDatabases,
  RawChainDatabases,
  ServiceMigrations,
} from '../raw-chain-databases';
import { LedgerAccounts } from '../raw-consumer-steps';
import { createOrder, payCallback, RawOrder, startPayment } from '../raw-order-steps';
import { MinimalConsumers } from './minimal-consumers';
import { MinimalCouponProvider } from './minimal-coupon-provider';
import { MinimalRelay } from './minimal-relay';

/** Connections per service database: callbacks in flight, consumers' partitions, a relay. */
const CONNECTIONS = 16;
/** Orders being created at once, as createPayingOrders does for the real chain. */
const PREPARING_IN_FLIGHT = 8;
/** Partitions of each topic, as the stack creates them. */
const PARTITIONS = 6;

/** Where the minimal chain runs and what it is built from. */
export interface MinimalChainOptions {
  mysqlUrl: string;
  /** Prefix of its four databases, its topics and its consumer groups. */
  prefix: string;
  /** The broker the real chain uses (its topics are created there). */
  kafka: KafkaBroker;
  /** The consumer services' fetch wait (KAFKA_FETCH_MAX_WAIT_MS). */
  fetchMaxWaitMs: number;
  migrations: ServiceMigrations;
  accounts: LedgerAccounts;
}

/**
 * The latency baseline of the chain (issue 35): the same transactions with hand-written control
 * flow in this process, no Nest and no services. The pay callback's transaction with its
 * OrderPaid outbox row (raw-order-steps); a minimal SKIP LOCKED relay per outbox (order,
 * fulfillment) waking on this process's commits; bare kafkajs consumers that run the
 * fulfillment (its coupon grant over HTTP to a bare coupon provider) and the journals with
 * their inbox rows (raw-consumer-steps). Four databases of its own, migrated with the services'
 * migrations, and topics of its own on the real chain's broker.
 */
export class MinimalChain {
  private constructor(
    private readonly databases: RawChainDatabases,
    private readonly relays: { order: MinimalRelay; fulfillment: MinimalRelay },
    private readonly couponProvider: MinimalCouponProvider,
    private readonly consumers: MinimalConsumers,
  ) {}

  /** Its order database (outbox rows with their sent times). */
  get orderDb(): Pool {
    return this.databases.pools.order;
  }

  /** Its fulfillment database (the fulfillment's inbox rows). */
  get fulfillmentDb(): Pool {
    return this.databases.pools.fulfillment;
  }

  /** Its accounting database (the journals). */
  get accountingDb(): Pool {
    return this.databases.pools.accounting;
  }

  static async start(options: MinimalChainOptions): Promise<MinimalChain> {
    const topicPrefix = options.prefix.replace(/_/g, '.');
    const topics = {
      order: topicForAggregate('Order', topicPrefix),
      fulfillment: topicForAggregate('Fulfillment', topicPrefix),
    };
    await options.kafka.createTopics({
      [topics.order]: PARTITIONS,
      [topics.fulfillment]: PARTITIONS,
    });
    const databases = await createRawChainDatabases(
      options.mysqlUrl,
      options.prefix,
      CONNECTIONS,
      options.migrations,
    );
    const { pools } = databases;
    await openLedgerAccounts(pools.accounting, options.accounts);
    const brokers = options.kafka.brokers;
    const relays = {
      order: new MinimalRelay(pools.order, topics.order, brokers),
      fulfillment: new MinimalRelay(pools.fulfillment, topics.fulfillment, brokers),
    };
    const couponProvider = await MinimalCouponProvider.start(pools.coupon);
    const consumers = new MinimalConsumers({
      brokers,
      fetchMaxWaitMs: options.fetchMaxWaitMs,
      partitionsConsumedConcurrently: 4,
    });
    const chain = new MinimalChain(databases, relays, couponProvider, consumers);
    try {
      relays.order.start();
      relays.fulfillment.start();
      await consumers.startFulfillment({
        group: `${topicPrefix}fulfillment`,
        orderTopic: topics.order,
        db: pools.fulfillment,
        grant: (request) => couponProvider.grant(request),
        committed: () => relays.fulfillment.wake(),
      });
      await consumers.startAccounting({
        group: `${topicPrefix}accounting`,
        topics: [topics.order, topics.fulfillment],
        db: pools.accounting,
        accounts: options.accounts,
      });
    } catch (error) {
      await chain.stop().catch(() => undefined);
      throw error;
    }
    return chain;
  }

  /** Creates `count` orders and starts paying each (as POST /orders and /orders/:id/pay). */
  async prepare(count: number): Promise<RawOrder[]> {
    return mapConcurrently(
      Array.from({ length: count }, (_, i) => i),
      PREPARING_IN_FLIGHT,
      (i) =>
        this.withOrderConnection(async (connection) => {
          const { order } = await createOrder(connection, {
            userId: `bench-${i % 50}`,
            amount: 1_000 + i,
          });
          this.relays.order.wake();
          await startPayment(connection, order);
          this.relays.order.wake();
          return order;
        }),
    );
  }

  /** The pay callback's transaction (PAID, its transition and OrderPaid), then the relay woken. */
  async callback(order: RawOrder): Promise<void> {
    await this.withOrderConnection((connection) => payCallback(connection, order));
    this.relays.order.wake();
  }

  async stop(): Promise<void> {
    const results = await Promise.allSettled([
      this.consumers.stop(),
      this.relays.order.stop(),
      this.relays.fulfillment.stop(),
    ]);
    await this.couponProvider.stop();
    await this.databases.close();
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  private async withOrderConnection<T>(
    work: (connection: Awaited<ReturnType<Pool['getConnection']>>) => Promise<T>,
  ): Promise<T> {
    const connection = await this.databases.pools.order.getConnection();
    try {
      return await work(connection);
    } finally {
      connection.release();
    }
  }
}
