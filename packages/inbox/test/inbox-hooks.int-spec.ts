import { parcelEvent, toMessage, waitFor } from '@outbox-inbox/test-kit';
import { DeliveryPosition } from '../src';
import { useInboxTestBed } from './fixtures/inbox-test-app';
import { TestBehaviour } from './fixtures/test-consumer.controller';

/** The test hooks, handed to InboxModule by InboxHooksModule of `/testing`. */
describe('InboxHooksModule', () => {
  const bed = useInboxTestBed('inbox_hooks');

  it.each([1, 3])(
    'calls afterTransactionCommit for each committed message and never for a dead-lettered one (batchSize %i)',
    async (batchSize) => {
      const { topic, options } = await bed.channel(`inbox.hooks.b${batchSize}`, 1);
      const behaviour = new TestBehaviour();
      const [good, poisoned, later] = ['good', 'poisoned', 'later'].map(
        (name) => `hook-${batchSize}-${name}`,
      );
      behaviour.rejected.add(`ParcelRegistered:${poisoned}:1`);
      const committed: DeliveryPosition[] = [];
      const app = await bed.startApp({
        ...options,
        behaviour,
        inbox: { batchSize },
        hooks: { afterTransactionCommit: (position) => void committed.push(position) },
      });
      try {
        await bed.producer.send({
          topic,
          messages: [good, poisoned, later].map((id) =>
            toMessage(parcelEvent('registered', id, 1)),
          ),
        });
        // Offsets settle in order: once the last one has, the dead letter before it has too.
        await waitFor(() => committed.some((position) => position.offset === '2'));
        expect(app.metrics.deadLettered).toBe(1);
        expect(committed).toEqual([
          { topic, partition: 0, offset: '0' },
          { topic, partition: 0, offset: '2' },
        ]);
        expect(await bed.effectVersions(good)).toEqual([1]);
        expect(await bed.effectVersions(poisoned)).toEqual([]);
      } finally {
        await app.close();
      }
    },
  );
});
