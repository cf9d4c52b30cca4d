import { defineEvent, EventEnvelope, eventKeyOf } from '@outbox-inbox/messaging';
import { parcelEvent, parcelEventRegistry, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { IsInt, IsString } from 'class-validator';
import { topicSize } from './fixtures/kafka-reads';
import { useInboxTestBed } from './fixtures/inbox-test-app';

/** ParcelShipped as a newer producer might change it incompatibly: schema version 2. */
class ParcelShippedV2Payload {
  @IsString() parcelId!: string;
  @IsInt() weightMilligrams!: number;
}
const ParcelShippedV2 = defineEvent({
  eventType: 'ParcelShipped',
  aggregateType: 'Parcel',
  schemaVersion: 2,
  payload: ParcelShippedV2Payload,
});

/** `envelope` as another event type, which no consumer here knows. */
function asUnknownType(envelope: EventEnvelope, eventType: string): EventEnvelope {
  const { aggregateId, aggregateVersion } = envelope;
  return {
    ...envelope,
    eventType,
    eventKey: eventKeyOf(eventType, aggregateId, aggregateVersion),
    payload: { wrapping: 'gold' },
  };
}

describe('Inbox as a tolerant reader', () => {
  const bed = useInboxTestBed('inbox_tolerant_reader');

  async function outcome(consumer: string, eventKey: string): Promise<string | undefined> {
    const rows = (await bed.dataSource.query(
      'SELECT outcome FROM t_inbox WHERE consumer = ? AND event_key = ?',
      [consumer, eventKey],
    )) as Array<{ outcome: string }>;
    return rows[0]?.outcome;
  }

  async function setup(name: string) {
    const topic = await bed.env.createTopic(`inbox.${name}`, 1);
    const deadLetterTopic = await bed.env.createTopic(`inbox.${name}.dlq`, 1);
    return { topic, deadLetterTopic, consumer: `c-${topic}` };
  }

  describe('when a newer producer adds fields and an event type', () => {
    it('applies the events it knows with their new fields kept, records and skips the unknown type, dead-letters nothing', async () => {
      const { topic, deadLetterTopic, consumer } = await setup('newer');
      const app = await bed.startApp({ consumer, topics: [topic], deadLetterTopic });
      try {
        const created = parcelEvent('registered', 'newer-1', 1);
        const withExtras = {
          ...created,
          tenant: 'eu-1', // an optional envelope field this consumer does not know
          payload: { ...(created.payload as object), channel: 'app' }, // and a payload field
        };
        const wrapped = asUnknownType(parcelEvent('returned', 'newer-1', 2), 'ParcelGiftWrapped');
        const paid = parcelEvent('shipped', 'newer-1', 3);
        const paidWithExtras = {
          ...paid,
          payload: { ...(paid.payload as object), loyaltyPoints: 12 },
        };
        await bed.producer.send({
          topic,
          messages: [withExtras, wrapped, paidWithExtras].map((e) => toMessage(e)),
        });

        await waitFor(async () => (await bed.effectVersions('newer-1')).length === 2, {
          description: 'ParcelRegistered and ParcelShipped applied',
        });
        expect(await bed.effectVersions('newer-1')).toEqual([1, 3]);
        expect(app.behaviour.received.get(created.eventKey)).toEqual(withExtras);
        expect(app.behaviour.received.get(paid.eventKey)?.payload).toMatchObject({
          loyaltyPoints: 12,
        });
        expect(await outcome(consumer, wrapped.eventKey)).toBe('ignored');
        expect(app.metrics.unknownEventTypes).toBe(1);
        expect(app.metrics.deadLettered).toBe(0);
        expect(await topicSize(bed.env.kafka, deadLetterTopic)).toBe(0);
      } finally {
        await app.close();
      }
    });
  });

  describe('when an event comes in a newer schema version than the consumer knows', () => {
    it('holds it and its successors instead of misapplying them, and a consumer that knows the version applies them', async () => {
      const { topic, deadLetterTopic, consumer } = await setup('major');
      const created = parcelEvent('registered', 'major-1', 1);
      const paidV2: EventEnvelope = {
        ...parcelEvent('shipped', 'major-1', 2),
        schemaVersion: 2,
        payload: { parcelId: 'major-1', weightMilligrams: 1_000 },
      };
      const cancelled = parcelEvent('returned', 'major-1', 3);
      const old = await bed.startApp({ consumer, topics: [topic], deadLetterTopic });
      try {
        await bed.producer.send({
          topic,
          messages: [created, paidV2, cancelled].map((e) => toMessage(e)),
        });
        await waitFor(async () => (await outcome(consumer, cancelled.eventKey)) === 'parked', {
          description: 'the successor parked behind the held event',
        });
        expect(await bed.effectVersions('major-1')).toEqual([1]);
        expect(await outcome(consumer, paidV2.eventKey)).toBe('parked');
        expect(old.metrics.heldNewerSchema).toBe(1);
        expect(old.metrics.deadLettered).toBe(0);
      } finally {
        await old.close();
      }

      // The consumer is upgraded: it knows ParcelShipped@2 and drains what was held, in order.
      const upgraded = await bed.startApp({
        consumer,
        topics: [topic],
        deadLetterTopic,
        inbox: { registry: parcelEventRegistry().register(ParcelShippedV2) },
      });
      try {
        await waitFor(async () => (await bed.effectVersions('major-1')).length === 3, {
          description: 'the held event and its successor applied after the upgrade',
        });
        expect(await bed.effectVersions('major-1')).toEqual([1, 2, 3]);
        expect(upgraded.behaviour.received.get(paidV2.eventKey)?.schemaVersion).toBe(2);
        expect(await topicSize(bed.env.kafka, deadLetterTopic)).toBe(0);
      } finally {
        await upgraded.close();
      }
    });
  });
});
