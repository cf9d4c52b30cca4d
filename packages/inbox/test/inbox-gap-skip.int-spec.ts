import { AddressInfo } from 'node:net';
import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { runScript } from '../../../test/support/run-script';
import { useInboxTestBed } from './fixtures/inbox-test-app';

describe('Skipping a gap on purpose', () => {
  const bed = useInboxTestBed('inbox_gap_skip');

  it('with the ops command: audits the skip, applies the parked successors in order, and shows it in the deliveries', async () => {
    const topic = await bed.env.createTopic('inbox.gap-skip', 1);
    const deadLetterTopic = await bed.env.createTopic('inbox.gap-skip.dlq', 1);
    const consumer = `c-${topic}`;
    const app = await bed.startApp({ consumer, topics: [topic], deadLetterTopic, http: true });
    const url = `http://127.0.0.1:${(app.app.getHttpServer().address() as AddressInfo).port}`;
    try {
      // Version 2 never comes (dead-lettered for good upstream): 3 and 4 park behind it.
      await bed.producer.send({
        topic,
        messages: [
          parcelEvent('registered', 'gap-1', 1),
          parcelEvent('shipped', 'gap-1', 3),
          parcelEvent('returned', 'gap-1', 4),
        ].map((e) => toMessage(e)),
      });
      await waitFor(async () => (await app.operations.stats()).parkedNow === 2, {
        description: 'versions 3 and 4 parked behind the missing 2',
      });
      expect(await bed.effectVersions('gap-1')).toEqual([1]);

      // Not the missing version: refused, nothing changes.
      const wrong = await fetch(`${url}/inbox/gaps/skip`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          aggregateType: 'Parcel',
          aggregateId: 'gap-1',
          version: 3,
          reason: 'wrong version',
        }),
      });
      expect(wrong.status).toBe(409);
      const noReason = await fetch(`${url}/inbox/gaps/skip`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ aggregateType: 'Parcel', aggregateId: 'gap-1', version: 2 }),
      });
      expect(noReason.status).toBe(400);
      expect((await app.operations.stats()).parkedNow).toBe(2);

      const run = await runScript('scripts/ops.ts', [
        'gap:skip',
        '--service',
        url,
        '--aggregate',
        'Parcel:gap-1',
        '--version',
        '2',
        '--reason',
        'ParcelPacked v2 was lost with a restored backup',
        '--by',
        'ops-anna',
        '--yes',
        '--json',
      ]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        aggregateType: 'Parcel',
        aggregateId: 'gap-1',
        skippedVersion: 2,
        drained: 2,
        lastVersion: 4,
      });
      expect(await bed.effectVersions('gap-1')).toEqual([1, 3, 4]);
      expect((await app.operations.stats()).parkedNow).toBe(0);
      const audit = (await bed.dataSource.query(
        `SELECT aggregate_version, reason, skipped_by, drained FROM t_inbox_skip
         WHERE consumer = ? AND aggregate_id = 'gap-1'`,
        [consumer],
      )) as Array<Record<string, unknown>>;
      expect(audit).toEqual([
        {
          aggregate_version: 2,
          reason: 'ParcelPacked v2 was lost with a restored backup',
          skipped_by: 'ops-anna',
          drained: 2,
        },
      ]);
      // The app ran InboxMigrations alone: they made the operator audit log's table too.
      const log = await fetch(`${url}/inbox/audit`);
      expect(log.status).toBe(200);
      expect(await log.json()).toEqual([
        expect.objectContaining({
          action: 'inbox.gap-skip',
          target: { consumer, aggregateType: 'Parcel', aggregateId: 'gap-1', version: 2 },
          count: 1,
          reason: 'ParcelPacked v2 was lost with a restored backup',
        }),
      ]);
      const deliveries = await app.operations.deliveriesOf([
        { aggregateType: 'Parcel', aggregateId: 'gap-1' },
      ]);
      expect(deliveries.map((d) => [d.eventType, d.outcome])).toEqual(
        expect.arrayContaining([
          ['Parcel v2', 'skipped'],
          ['ParcelShipped', 'applied'],
          ['ParcelReturned', 'applied'],
        ]),
      );
      // The next version flows as usual.
      await bed.producer.send({ topic, messages: [toMessage(parcelEvent('shipped', 'gap-1', 5))] });
      await waitFor(async () => (await bed.effectVersions('gap-1')).length === 4, {
        description: 'version 5 applied after the skip',
      });
    } finally {
      await app.close();
    }
  });
});
