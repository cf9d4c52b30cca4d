import { testKafkaConfig } from '@outbox-inbox/test-kit';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { FulfillmentDoneV1Payload, OrderPaidV1Payload } from '@app/trading-events';
import { Consumer, EachMessagePayload, Kafka, logLevel } from 'kafkajs';
import { Pool, PoolConnection } from 'mysql2/promise';
import {
  ACCOUNTING,
  bookFulfillmentDone,
  bookOrderPaid,
  CouponGrant,
  FULFILLMENT,
  fulfillOrderPaid,
  ignoreEvent,
  LedgerAccounts,
} from '../raw-consumer-steps';

/** How a minimal consumer fetches: the inbox's default concurrency, the services' fetch wait. */
export interface MinimalConsumerSettings {
  brokers: string[];
  fetchMaxWaitMs: number;
  /** Partitions handled at once (the inbox's default partitionsConsumedConcurrently is 4). */
  partitionsConsumedConcurrently: number;
}

/**
 * The minimal chain's consumers: bare kafkajs consumers whose message handlers run the raw
 * chain's consumer transactions (the inbox row and version gate with the handler's statements,
 * one transaction per event), as the fulfillment-service and the accounting-service take the
 * same events in. No inbox, Nest, validation or retries: an error stops the consumer, and
 * `stop()` rethrows it.
 */
export class MinimalConsumers {
  private readonly consumers: Consumer[] = [];
  private failure?: unknown;

  constructor(private readonly settings: MinimalConsumerSettings) {}

  /**
   * The fulfillment: OrderPaid fulfilled with its coupon grant (`grant`), then `committed()` (a
   * FulfillmentDone row is in its outbox); any other order event taken in and ignored.
   */
  async startFulfillment(input: {
    group: string;
    orderTopic: string;
    db: Pool;
    grant: (request: CouponGrant) => Promise<string>;
    committed: () => void;
  }): Promise<void> {
    await this.start(input.group, [input.orderTopic], input.db, async (connection, event) => {
      if (event.eventType !== 'OrderPaid') return ignoreEvent(connection, FULFILLMENT, event);
      await fulfillOrderPaid(connection, input.grant, event as EventEnvelope<OrderPaidV1Payload>);
      input.committed();
    });
  }

  /** The accounting: the payment journal of OrderPaid, the coupon journal of FulfillmentDone. */
  async startAccounting(input: {
    group: string;
    topics: string[];
    db: Pool;
    accounts: LedgerAccounts;
  }): Promise<void> {
    await this.start(input.group, input.topics, input.db, (connection, event) => {
      switch (event.eventType) {
        case 'OrderPaid':
          return bookOrderPaid(
            connection,
            event as EventEnvelope<OrderPaidV1Payload>,
            input.accounts,
          );
        case 'FulfillmentDone':
          return bookFulfillmentDone(
            connection,
            event as EventEnvelope<FulfillmentDoneV1Payload>,
            input.accounts,
          );
        default:
          return ignoreEvent(connection, ACCOUNTING, event);
      }
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.disconnect()));
    if (this.failure) throw this.failure;
  }

  /** Joins `group` on `topics` and resolves once the group has assigned its partitions. */
  private async start(
    group: string,
    topics: string[],
    db: Pool,
    handle: (connection: PoolConnection, event: EventEnvelope) => Promise<void>,
  ): Promise<void> {
    const consumer = new Kafka(
      testKafkaConfig({
        clientId: group,
        brokers: this.settings.brokers,
        logLevel: logLevel.NOTHING,
      }),
    ).consumer({ groupId: group, maxWaitTimeInMs: this.settings.fetchMaxWaitMs });
    this.consumers.push(consumer);
    const joined = new Promise<void>((resolve) =>
      consumer.on(consumer.events.GROUP_JOIN, () => resolve()),
    );
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
      eachMessage: async ({ message }: EachMessagePayload) => {
        const event = JSON.parse(message.value!.toString('utf8')) as EventEnvelope;
        const connection = await db.getConnection();
        try {
          await handle(connection, event);
        } catch (error) {
          this.failure ??= error;
          throw error;
        } finally {
          connection.release();
        }
      },
    });
    await joined;
  }
}
