import { BaseRpcContext } from '@nestjs/microservices';
import { EntityManager } from 'typeorm';

/** Where the event being handled came from. */
export interface InboxDelivery {
  manager: EntityManager;
  consumer: string;
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
}

/**
 * The `@Ctx()` of an inbox handler. `manager` is the inbox transaction's EntityManager: write
 * the effect (and any outbox rows) with it, so the effect commits with the inbox row or not at all.
 */
export class InboxContext extends BaseRpcContext<[InboxDelivery]> {
  readonly manager: EntityManager;
  readonly consumer: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly headers: Record<string, string>;

  constructor(delivery: InboxDelivery) {
    super([delivery]);
    this.manager = delivery.manager;
    this.consumer = delivery.consumer;
    this.topic = delivery.topic;
    this.partition = delivery.partition;
    this.offset = delivery.offset;
    this.headers = delivery.headers;
  }
}

/** Where one event of a run came from. */
export interface InboxBatchDelivery {
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
}

/**
 * The `@Ctx()` of an `@OnEventBatch` handler. `manager` is the inbox transaction's
 * EntityManager; `deliveries[i]` is where the run's event `i` came from.
 */
export class InboxBatchContext extends BaseRpcContext<[InboxBatchDelivery[]]> {
  readonly manager: EntityManager;
  readonly consumer: string;
  readonly deliveries: InboxBatchDelivery[];

  constructor(manager: EntityManager, consumer: string, deliveries: InboxBatchDelivery[]) {
    super([deliveries]);
    this.manager = manager;
    this.consumer = consumer;
    this.deliveries = deliveries;
  }
}
