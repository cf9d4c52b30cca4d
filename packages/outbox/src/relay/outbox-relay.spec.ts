import { MessageTracing, openTelemetryTracing } from '@outbox-inbox/messaging';
import { KafkaJSSASLAuthenticationError } from 'kafkajs';
import { waitFor } from '@outbox-inbox/test-kit';
import { resolveRelayOptions } from './outbox-relay.options';
import { OutboxRelay } from './outbox-relay';
import { InMemoryOutboxPublisher, InMemoryOutboxStore } from '../testing';
import { RelayConnections } from './relay-connections';

/** Nothing to open: the twins are in memory. */
const inMemory: RelayConnections = {
  isOpen: true,
  open: async () => undefined,
  close: async () => undefined,
};
const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined };

/** A relay over the in-memory twins of the store and the publisher: the loop and the sender, no I/O. */
function relayOver(
  store: InMemoryOutboxStore,
  publisher: InMemoryOutboxPublisher,
  tracing?: MessageTracing,
) {
  const options = resolveRelayOptions({
    batchSize: 3,
    maxAttempts: 2,
    backoff: { baseDelayMs: 1, maxDelayMs: 2 },
  });
  return new OutboxRelay({
    options,
    instanceId: 'twin',
    connections: inMemory,
    claims: store.claims(options, 'twin'),
    outcomes: store.outcomes(options),
    publisher,
    topicFor: (type) => `${type.toLowerCase()}.events`,
    logger: quiet,
    tracing,
  });
}

/** kafkajs's class, constructed as kafkajs does (its typings take no message). */
const SaslRefusal = KafkaJSSASLAuthenticationError as unknown as new (message: string) => Error;

const versionsOf = (publisher: InMemoryOutboxPublisher, aggregateId: string) =>
  publisher
    .messages()
    .filter((m) => m.key === aggregateId)
    .map((m) => m.headers['event-key']);

describe('OutboxRelay over the in-memory twins', () => {
  it('publishes every row once, each aggregate in version order, and marks them SENT', async () => {
    const store = new InMemoryOutboxStore();
    await store.add(
      [1, 2, 3, 4].flatMap((v) => [
        { aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: v },
        { aggregateType: 'Parcel', aggregateId: 'p2', aggregateVersion: v },
      ]),
    );
    const publisher = new InMemoryOutboxPublisher();
    const relay = relayOver(store, publisher);
    while ((await relay.relayOnce()) > 0);

    expect(versionsOf(publisher, 'p1')).toEqual([1, 2, 3, 4].map((v) => `ParcelNoted:p1:${v}`));
    expect(versionsOf(publisher, 'p2')).toEqual([1, 2, 3, 4].map((v) => `ParcelNoted:p2:${v}`));
    expect(publisher.published.every((b) => b.topic === 'parcel.events')).toBe(true);
    expect((await store.rows()).map((r) => r.status)).toEqual(Array(8).fill('SENT'));
    expect(relay.counts()).toMatchObject({ published: 8, publishFailures: 0, dead: 0 });
  });

  it('records a failed send as a failed attempt, and DEAD after maxAttempts, never as SENT', async () => {
    const store = new InMemoryOutboxStore();
    await store.add([{ aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: 1 }]);
    const failing = new InMemoryOutboxPublisher({
      around: async () => {
        throw new Error('broker unreachable');
      },
    });
    const relay = relayOver(store, failing);
    expect(await relay.relayOnce()).toBe(1);
    expect((await store.rows())[0]).toMatchObject({ status: 'NEW', retryCount: 1 });
    // Due again after a backoff of 1-2 ms.
    await waitFor(async () => (await relay.relayOnce()) === 1, { description: 'the second try' });
    expect((await store.rows())[0]).toMatchObject({ status: 'DEAD', retryCount: 2 });
    expect(failing.messages()).toEqual([]);
    expect(relay.counts()).toMatchObject({ published: 0, publishFailures: 2 });
  });

  it('holds a row whose topic does not exist, keeping its attempts, and names the topic', async () => {
    const store = new InMemoryOutboxStore();
    await store.add([{ aggregateType: 'Crate', aggregateId: 'c1', aggregateVersion: 1 }]);
    const publisher = new InMemoryOutboxPublisher({ topics: ['parcel.events'] });
    const relay = relayOver(store, publisher);
    await relay.relayOnce();
    expect((await store.rows())[0]).toMatchObject({ status: 'NEW', retryCount: 0 });
    expect(publisher.published).toEqual([]);
    expect(relay.faults()).toEqual([
      expect.objectContaining({ kind: 'topic', subject: 'crate.events', rounds: 1 }),
    ]);
    expect(relay.counts()).toMatchObject({ dead: 0, publishFailures: 0, topicHeld: 1 });
  });

  it("holds the rows while the cluster refuses the relay's login, keeping their attempts, and names the cause", async () => {
    const store = new InMemoryOutboxStore();
    await store.add([{ aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: 1 }]);
    let refuse = true;
    const publisher = new InMemoryOutboxPublisher({
      around: async (_batches, deliver) => {
        if (refuse) throw new SaslRefusal('SASL SCRAM SHA512 authentication failed');
        return deliver();
      },
    });
    const relay = relayOver(store, publisher);
    // More rounds than maxAttempts (2): a wrong password makes no row DEAD.
    for (let round = 0; round < 4; round++) {
      await waitFor(async () => (await relay.relayOnce()) === 1, {
        description: 'a refused round',
      });
    }
    expect((await store.rows())[0]).toMatchObject({ status: 'NEW', retryCount: 0 });
    expect(relay.faults()).toEqual([
      expect.objectContaining({
        kind: 'broker',
        subject: 'kafka',
        code: 'SASL_AUTHENTICATION_FAILED',
        rounds: 4,
      }),
    ]);
    expect(relay.counts()).toMatchObject({ dead: 0, publishFailures: 0 });

    refuse = false;
    await waitFor(async () => (await relay.relayOnce()) === 1, { description: 'the send let in' });
    expect((await store.rows())[0]).toMatchObject({ status: 'SENT' });
    expect(relay.faults()).toEqual([]);
  });

  it('sends through the tracing it is given: the headers that tracing writes are what is published', async () => {
    const store = new InMemoryOutboxStore();
    await store.add([{ aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: 1 }]);
    const publisher = new InMemoryOutboxPublisher();
    const tracing: MessageTracing = {
      ...openTelemetryTracing,
      publish: (batches, send) =>
        send(
          batches.map((b) => ({
            ...b,
            messages: b.messages.map((m) => ({
              ...m,
              headers: { ...m.headers, traceparent: 'traced' },
            })),
          })),
        ),
    };
    const relay = relayOver(store, publisher, tracing);
    await relay.relayOnce();
    expect(publisher.messages().map((m) => m.headers.traceparent)).toEqual(['traced']);
    expect((await store.rows())[0].status).toBe('SENT');
  });
  it('claims a row committed during a send while that batch is still being marked SENT', async () => {
    const store = new InMemoryOutboxStore();
    await store.add([{ aggregateType: 'Parcel', aggregateId: 'p1', aggregateVersion: 1 }]);
    const options = resolveRelayOptions({ batchSize: 3, pollIntervalMs: 60_000 });
    const commits = new Set<() => void>();
    const notifier = {
      onCommit(listener: () => void) {
        commits.add(listener);
        return () => void commits.delete(listener);
      },
    };
    let firstSend = true;
    const publisher = new InMemoryOutboxPublisher({
      around: async (_batches, deliver) => {
        if (firstSend) {
          // A second row commits while the first batch is on the wire.
          firstSend = false;
          await store.add([{ aggregateType: 'Parcel', aggregateId: 'p2', aggregateVersion: 1 }]);
          for (const wake of commits) wake();
        }
        await deliver();
      },
    });
    const outcomes = store.outcomes(options);
    let openMarkSent = () => undefined as void;
    const markSentHeld = new Promise<void>((resolve) => (openMarkSent = resolve));
    const relay = new OutboxRelay({
      options,
      instanceId: 'twin',
      connections: inMemory,
      claims: store.claims(options, 'twin'),
      outcomes: {
        ...Object.fromEntries(
          (['markFailed', 'markDead', 'extendLease', 'release', 'releaseLeases'] as const).map(
            (name) => [name, outcomes[name].bind(outcomes)],
          ),
        ),
        markSent: async (ids: string[], token: string) => {
          // The first batch's outcome write is slow: the next claim must not wait for it.
          await markSentHeld;
          return outcomes.markSent(ids, token);
        },
      } as typeof outcomes,
      publisher,
      topicFor: (type) => `${type.toLowerCase()}.events`,
      notifier,
      logger: quiet,
    });
    relay.start();
    try {
      await waitFor(() => publisher.messages().some((m) => m.key === 'p2'), {
        description: "p2 published while p1's outcome is still being written",
      });
      expect((await store.rows()).map((r) => r.status)).toEqual(['SENDING', 'SENDING']);
      openMarkSent();
      await waitFor(async () => (await store.rows()).every((r) => r.status === 'SENT'), {
        description: 'both rows SENT',
      });
      expect(relay.counts()).toMatchObject({ published: 2, claimsWithRows: 2 });
    } finally {
      openMarkSent();
      await relay.stop();
    }
  });
});
