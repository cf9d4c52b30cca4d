import {
  parcelEvent,
  parcelEventRegistry,
  ParcelRegisteredV1,
  ParcelShippedV1,
} from '@outbox-inbox/test-kit';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { Controller, INestApplication, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { InboxModule, NonRetryableError, OnEvent } from '../src';
import { InboxTestHarness, InMemoryInboxDatabase } from '../src/testing';

const CONSUMER = 'twin-consumer';
const CALLS = Symbol('CALLS');

/** What the handler was called with, and the event keys it refuses. */
class Calls {
  readonly received: EventEnvelope[] = [];
  readonly refused = new Set<string>();
}

/** A handler whose effect is not in the database: it calls out, here into a list. */
@Controller()
class ParcelNotifier {
  constructor(@Inject(CALLS) private readonly calls: Calls) {}

  @OnEvent(ParcelRegisteredV1)
  onRegistered(@Payload() event: EventEnvelope): void {
    this.notify(event);
  }

  @OnEvent(ParcelShippedV1)
  onShipped(@Payload() event: EventEnvelope): void {
    this.notify(event);
  }

  private notify(event: EventEnvelope): void {
    if (this.calls.refused.has(event.eventKey)) throw new NonRetryableError('refused');
    this.calls.received.push(event);
  }
}

describe('InboxTestHarness on the in-memory twin', () => {
  let app: INestApplication;
  let calls: Calls;
  let database: InMemoryInboxDatabase;
  let inbox: InboxTestHarness;

  beforeEach(async () => {
    calls = new Calls();
    @Module({
      imports: [
        InboxModule.forRoot({
          consumer: CONSUMER,
          // Never connected: the twin holds the inbox's rows.
          dataSource: new DataSource({ type: 'mysql' }),
          kafka: { brokers: ['127.0.0.1:9'], clientId: 'twin-app' },
          topics: ['parcels'],
          registry: parcelEventRegistry(),
        }),
      ],
      controllers: [ParcelNotifier],
      providers: [{ provide: CALLS, useValue: calls }],
    })
    class AppUnderTest {}
    app = await NestFactory.create(AppUnderTest, { logger: false });
    await app.init();
    database = new InMemoryInboxDatabase();
    inbox = InboxTestHarness.create(app, { database });
  });
  afterEach(() => app?.close());

  it('applies an event delivered twice once, and counts the copy', async () => {
    const event = parcelEvent('registered', 'twice', 1);
    expect(await inbox.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
    expect(await inbox.deliver(event)).toEqual({ outcome: 'duplicate', drained: 0 });

    expect(calls.received.map((e) => e.eventKey)).toEqual([event.eventKey]);
    expect((await database.tables()).inbox).toEqual([
      { consumer: CONSUMER, eventKey: event.eventKey, outcome: 'applied', duplicateCount: 1 },
    ]);
  });

  it('parks version 2 until version 1 arrives, then applies both in order', async () => {
    const [v1, v2] = [parcelEvent('registered', 'p', 1), parcelEvent('shipped', 'p', 2)];
    expect(await inbox.deliver(v2)).toEqual({ outcome: 'parked', drained: 0 });
    expect((await database.tables()).parked).toHaveLength(1);
    expect(calls.received).toEqual([]);

    expect(await inbox.deliver(v1)).toEqual({ outcome: 'applied', drained: 1 });

    expect(calls.received.map((e) => e.aggregateVersion)).toEqual([1, 2]);
    const tables = await database.tables();
    expect(tables.parked).toEqual([]);
    expect(tables.gates).toEqual([
      expect.objectContaining({ aggregateId: 'p', lastVersion: 2, parkedCount: 0 }),
    ]);
  });

  it('dead-letters an invalid event without calling the handler or writing a row', async () => {
    const good = parcelEvent('registered', 'bad', 1);
    const invalid = { ...good, payload: { parcelId: 'bad' } };

    expect(await inbox.deliver(invalid)).toMatchObject({
      outcome: 'dead-lettered',
      errorCode: 'INVALID_EVENT',
      attempts: 1,
    });
    expect(calls.received).toEqual([]);
    expect((await database.tables()).inbox).toEqual([]);
    expect(inbox.deadLetters.map((d) => d.key)).toEqual(['bad']);
  });

  it('rolls back the inbox row of an event its handler refuses', async () => {
    const refused = parcelEvent('registered', 'refused', 1);
    calls.refused.add(refused.eventKey);

    expect(await inbox.deliver(refused)).toMatchObject({
      outcome: 'dead-lettered',
      errorCode: 'NON_RETRYABLE',
    });
    expect((await database.tables()).inbox).toEqual([]);
    expect((await database.tables()).gates).toEqual([]);
  });
});
