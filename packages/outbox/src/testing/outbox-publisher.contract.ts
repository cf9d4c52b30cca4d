import { ContractRunner, featureGate, runnerGlobals } from '@outbox-inbox/messaging/testing';
import { OutboxPublisher } from '../publisher/outbox-publisher';
import { TopicUnavailableError } from '../publisher/topic-unavailable';
import { planPublish, toTopicBatches } from '../relay/publish-plan';
import { ClaimedRow } from '../store/outbox-row';

/** A message as the fixture read it back from where the publisher sent it. */
export interface ReceivedMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/**
 * Cases that need more of the fixture than two topics: breaking the publisher's backend
 * ('broker-outage'), or a cluster whose ACLs deny the publisher a topic ('denied-topic').
 * An in-memory twin has neither.
 */
export type OutboxPublisherFeature = 'broker-outage' | 'denied-topic';

/** One publisher under test, with two topics of its own that exist and are empty. */
export interface OutboxPublisherUnderTest {
  publisher: OutboxPublisher;
  topics: [string, string];
}

/** How the suite reaches an implementation of the OutboxPublisher port. */
export interface OutboxPublisherFixture {
  /** A publisher for one case. */
  start(): Promise<OutboxPublisherUnderTest>;
  /** The messages on `topic` once at least `count` have arrived, each key's in send order. */
  received(topic: string, count: number): Promise<ReceivedMessage[]>;
  /** Feature 'broker-outage': sends fail from now on, until the returned function ends it. */
  outage?(): Promise<() => Promise<void>>;
  /**
   * Feature 'denied-topic': a topic that exists and that the publisher's principal may neither
   * write nor describe (so its listing does not show it either).
   */
  deniedTopic?(): Promise<string>;
  /** After each case: disconnects the publisher. */
  stop(started: OutboxPublisherUnderTest): Promise<void>;
}

/**
 * The contract of the outbox publisher port, which every implementation must pass (kafkajs,
 * the in-memory twin, a later broker): rows published as the relay maps them (the aggregate id
 * as key, to the topic of the aggregate type, the row's headers), each key's messages in send
 * order, topics it lacks reported, and a send that fails rejects rather than resolving.
 */
export function runOutboxPublisherContract(
  name: string,
  fixture: OutboxPublisherFixture,
  features: OutboxPublisherFeature[] = [],
  runner: ContractRunner = runnerGlobals(),
): void {
  const { afterEach, beforeEach, describe, expect, it } = runner;
  const withFeature = featureGate(it, features);

  describe(`OutboxPublisher contract: ${name}`, () => {
    let started: OutboxPublisherUnderTest;
    let sequence = 0;
    beforeEach(async () => {
      started = await fixture.start();
    });
    afterEach(async () => {
      await fixture.stop(started);
    });

    /**
     * Publishes rows the way the relay does: topic by aggregate type (Parcel to the first of
     * `topics`, any other to the second), key = aggregate id.
     */
    async function publishRows(
      rows: ClaimedRow[],
      [parcels, crates]: readonly [string, string] = started.topics,
    ): Promise<void> {
      const topicOf = (row: ClaimedRow) => (row.aggregateType === 'Parcel' ? parcels : crates);
      const plan = planPublish(rows, topicOf, new Set(), {
        maxMessageBytes: 1_000_000,
        deadPolicy: 'pass',
      });
      expect(plan.poison).toEqual([]);
      await started.publisher.publish(toTopicBatches(plan.send));
    }

    function row(aggregateType: string, aggregateId: string, version: number): ClaimedRow {
      sequence += 1;
      const eventKey = `${aggregateType}Noted:${aggregateId}:${version}`;
      return {
        id: String(sequence),
        aggregateType,
        aggregateId,
        aggregateVersion: version,
        eventType: `${aggregateType}Noted`,
        eventKey,
        payload: JSON.stringify({ eventKey, version }),
        headers: { 'event-key': eventKey, 'event-type': `${aggregateType}Noted` },
        retryCount: 0,
      };
    }

    it("publishes each row keyed by its aggregate id to its aggregate type's topic, with its headers", async () => {
      const rows = [row('Parcel', 'p-1', 1), row('Crate', 'c-1', 1), row('Parcel', 'p-2', 1)];
      await publishRows(rows);
      const [parcels, crates] = started.topics;
      const onParcels = await fixture.received(parcels, 2);
      const onCrates = await fixture.received(crates, 1);
      const expected = (r: ClaimedRow) => ({
        key: r.aggregateId,
        value: r.payload,
        headers: r.headers,
      });
      expect(sortByKey(onParcels)).toEqual([expected(rows[0]), expected(rows[2])]);
      expect(onCrates).toEqual([expected(rows[1])]);
    });

    it('keeps the send order of each key, across sends', async () => {
      for (let version = 1; version <= 4; version++) {
        await publishRows([row('Parcel', 'p-a', version), row('Parcel', 'p-b', version)]);
      }
      const received = await fixture.received(started.topics[0], 8);
      const versionsOf = (key: string) =>
        received
          .filter((m) => m.key === key)
          .map((m) => (JSON.parse(m.value) as { version: number }).version);
      expect(versionsOf('p-a')).toEqual([1, 2, 3, 4]);
      expect(versionsOf('p-b')).toEqual([1, 2, 3, 4]);
    });

    it('reports the topics it lacks, and only those', async () => {
      // Named after a topic it has: where ACLs apply, a name it may not describe is denied.
      const lacking = `${started.topics[0]}.absent.${Date.now()}`;
      expect(await started.publisher.missingTopics([started.topics[0], lacking])).toEqual([
        lacking,
      ]);
      expect(await started.publisher.missingTopics([...started.topics])).toEqual([]);
    });

    withFeature('denied-topic')(
      'tells a topic the ACLs deny from a missing one, and still publishes the other topics of the send',
      async () => {
        const denied = await fixture.deniedTopic!();
        expect(await started.publisher.missingTopics([started.topics[0], denied])).toEqual([]);
        const sent = [row('Parcel', 'p-d', 1), row('Crate', 'c-d', 1)];
        const refusal = await publishRows(sent, [started.topics[0], denied]).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refusal).toBeInstanceOf(TopicUnavailableError);
        const { topics, published } = refusal as TopicUnavailableError;
        expect(topics).toEqual([{ topic: denied, code: 'TOPIC_AUTHORIZATION_FAILED' }]);
        expect(published).toEqual([started.topics[0]]);
        const received = await fixture.received(started.topics[0], 1);
        expect(received.map((m) => m.key)).toEqual(['p-d']);
      },
    );

    withFeature('broker-outage')(
      'rejects a send it could not complete, and sends again once the broker is back',
      async () => {
        await publishRows([row('Parcel', 'p-o', 1)]);
        const restore = await fixture.outage!();
        try {
          await expect(publishRows([row('Parcel', 'p-o', 2)])).rejects.toBeDefined();
        } finally {
          await restore();
        }
        await publishRows([row('Parcel', 'p-o', 3)]);
        const received = await fixture.received(started.topics[0], 2);
        const versions = received.map((m) => (JSON.parse(m.value) as { version: number }).version);
        // The failed send may or may not have landed (unknown), but never after a later one.
        expect(versions[0]).toBe(1);
        expect(versions[versions.length - 1]).toBe(3);
      },
    );
  });
}

function sortByKey<T extends { key: string }>(messages: T[]): T[] {
  return [...messages].sort((a, b) => a.key.localeCompare(b.key));
}
