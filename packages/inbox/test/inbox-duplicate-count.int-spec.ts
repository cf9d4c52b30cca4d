import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { committedTotal } from './fixtures/kafka-reads';
import { useInboxTestBed } from './fixtures/inbox-test-app';

/** Absorbed duplicates are counted on the inbox row, so they stay visible after a restart. */
describe('Inbox duplicate count', () => {
  const bed = useInboxTestBed('inbox_dupcount');

  describe.each([
    ['one message per transaction', 1],
    ['batched mode', 20],
  ])('in %s, when events are delivered 1, 2 and 50 times', (mode, batchSize) => {
    it('records 0, 1 and 49 duplicates on the inbox rows and lists them per aggregate', async () => {
      const name = `dupcount${batchSize}`;
      const topic = await bed.env.createTopic(`inbox.${name}`, 1);
      const deadLetterTopic = await bed.env.createTopic(`inbox.${name}.dlq`, 1);
      const consumer = `c-${topic}`;
      const once = parcelEvent('registered', `${name}-1`, 1);
      const twice = parcelEvent('registered', `${name}-2`, 1);
      const fifty = parcelEvent('registered', `${name}-3`, 1);
      const messages = [once, twice, twice, ...Array.from({ length: 50 }, () => fifty)];
      await bed.producer.send({ topic, messages: messages.map(toMessage) });

      const app = await bed.startApp({
        consumer,
        topics: [topic],
        deadLetterTopic,
        inbox: { batchSize },
        http: true,
      });
      try {
        await waitFor(async () => (await committedTotal(bed.env.kafka, consumer, topic)) === 53, {
          description: `all 53 deliveries acknowledged (${mode})`,
        });
        const rows = (await bed.dataSource.query(
          `SELECT event_key, duplicate_count, last_duplicate_at FROM t_inbox WHERE consumer = ?`,
          [consumer],
        )) as Array<{ event_key: string; duplicate_count: number; last_duplicate_at: Date | null }>;
        const counts = new Map(rows.map((r) => [r.event_key, Number(r.duplicate_count)]));
        expect([once, twice, fifty].map((e) => counts.get(e.eventKey))).toEqual([0, 1, 49]);
        const lastAt = new Map(rows.map((r) => [r.event_key, r.last_duplicate_at]));
        expect(lastAt.get(once.eventKey)).toBeNull();
        expect(lastAt.get(fifty.eventKey)).toBeInstanceOf(Date);

        const base = await app.app.getUrl();
        const response = await fetch(
          `${base}/inbox/deliveries?aggregate=Parcel:${name}-3&aggregate=Parcel:${name}-2`,
        );
        expect(response.status).toBe(200);
        const deliveries = (await response.json()) as Array<{
          eventKey: string;
          outcome: string;
          duplicateCount: number;
        }>;
        expect(
          new Set(deliveries.map((d) => `${d.eventKey} ${d.outcome} ${d.duplicateCount}`)),
        ).toEqual(new Set([`${twice.eventKey} applied 1`, `${fifty.eventKey} applied 49`]));
        const bad = await fetch(`${base}/inbox/deliveries?aggregate=parcel`);
        expect(bad.status).toBe(400);
      } finally {
        await app.close();
      }
    });
  });
});
