import { INestApplicationContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EventEnvelope, MessageTracing } from '@outbox-inbox/messaging';
import { DataSource } from 'typeorm';
import { OUTBOX_DATA_SOURCE, OUTBOX_MODULE_OPTIONS } from '../outbox.tokens';
import { createOutboxRelay } from '../relay/create-outbox-relay';
import { OutboxRelay } from '../relay/outbox-relay';
import { OutboxRelayOptions } from '../relay/outbox-relay.options';
import { InMemoryOutboxPublisher } from './in-memory-outbox-publisher';

/** What the harness reads of the app's OutboxModule options. */
interface AppOutboxOptions {
  topicFor: (aggregateType: string) => string;
  relay?: Partial<OutboxRelayOptions> & { enabled?: boolean };
  tracing?: MessageTracing;
}

/** Which of the written events to list; every field given must match. */
export interface WrittenFilter {
  eventType?: string;
  aggregateType?: string;
  aggregateId?: string;
}

/** A message the harness's relay published: where it went, and the event it carried. */
export interface PublishedEvent {
  topic: string;
  /** The Kafka key: the aggregate id. */
  key: string;
  headers: Record<string, string>;
  envelope: EventEnvelope;
}

/**
 * What an application's commands wrote to its outbox, for its own tests: the rows of t_outbox
 * read back as envelopes (`written`), and the outbox relay run through on them in process
 * (`relay`): it claims, orders and marks rows SENT as in production, and publishes to a list
 * (`published`) instead of Kafka.
 *
 * ```ts
 * const outbox = OutboxTestHarness.create(app);
 * await request(app.getHttpServer()).post('/loans').send(…);
 * expect(await outbox.written({ eventType: 'LoanOpened' })).toHaveLength(1);
 * expect((await outbox.relay()).map((m) => m.topic)).toEqual(['library.loan.events']);
 * ```
 */
export class OutboxTestHarness {
  /** Every message the harness's relay published, in order (MassTransit's "published" list). */
  readonly published: PublishedEvent[] = [];
  private readonly publisher = new InMemoryOutboxPublisher();
  private readonly relayer: OutboxRelay;

  private constructor(
    private readonly dataSource: DataSource,
    options: AppOutboxOptions,
  ) {
    const { enabled: _enabled, ...tuning } = options.relay ?? {};
    // The app's relay settings, on the app's own DataSource (no pool of its own to close).
    this.relayer = createOutboxRelay({
      ...tuning,
      ownConnections: 0,
      instanceId: 'outbox-test-harness',
      dataSource,
      publisher: this.publisher,
      topicFor: options.topicFor,
      tracing: options.tracing,
    });
  }

  /**
   * A harness on `app`'s outbox: the DataSource and the options it was given through
   * OutboxModule. Kafka is never contacted. Let the app's own relay be off in such tests
   * (`relay: { enabled: false }`), or it publishes the rows before `relay` can.
   */
  static create(app: INestApplicationContext): OutboxTestHarness {
    // Looked up through ModuleRef: a missing provider throws there, where the app itself (when
    // made with abortOnError) would end the process instead.
    const refs = app.get(ModuleRef);
    try {
      return new OutboxTestHarness(
        refs.get<DataSource>(OUTBOX_DATA_SOURCE, { strict: false }),
        refs.get<AppOutboxOptions>(OUTBOX_MODULE_OPTIONS, { strict: false }),
      );
    } catch (error) {
      throw new Error(
        'OutboxTestHarness: the app has no outbox; import OutboxModule.forRoot(…) in its module',
        { cause: error },
      );
    }
  }

  /** The events in t_outbox, sent or not, in the order they were written. */
  async written(filter: WrittenFilter = {}): Promise<EventEnvelope[]> {
    const rows = (await this.dataSource.query(
      'SELECT payload FROM t_outbox ORDER BY id',
    )) as Array<{
      payload: string | EventEnvelope;
    }>;
    return rows
      .map((row) =>
        typeof row.payload === 'string' ? (JSON.parse(row.payload) as EventEnvelope) : row.payload,
      )
      .filter(
        (e) =>
          (filter.eventType === undefined || e.eventType === filter.eventType) &&
          (filter.aggregateType === undefined || e.aggregateType === filter.aggregateType) &&
          (filter.aggregateId === undefined || e.aggregateId === filter.aggregateId),
      );
  }

  /**
   * Runs the relay until no row is due: each round claims a batch, publishes it to the list
   * and marks its rows SENT. Answers the messages published by this call, in publish order.
   */
  async relay(): Promise<PublishedEvent[]> {
    const from = this.published.length;
    while ((await this.relayer.relayOnce()) > 0) {
      // one round per claimed batch, until none is due
    }
    const messages = this.publisher.published.flatMap((batch) =>
      batch.messages.map((m) => ({
        topic: batch.topic,
        key: m.key,
        headers: m.headers,
        envelope: JSON.parse(m.value) as EventEnvelope,
      })),
    );
    this.published.push(...messages.slice(from));
    return this.published.slice(from);
  }
}
