import { EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { Applying, Delivery, InboxHandler } from './inbox-handler.port';

/**
 * The handler calls of one batch, in the order the gate decided them, run together before the
 * batch commits. Consecutive events of an `@OnEventBatch` handler go to it in one call (a
 * run); every other handler gets its events one by one. The order of effects is the order of
 * decisions, whatever the grouping: a run never spans another handler's event.
 */
export class EffectQueue<Tx = EntityManager> {
  private readonly queued: Array<{ handler: InboxHandler<Tx>; applying: Applying }> = [];

  add(handler: InboxHandler<Tx>, envelope: EventEnvelope, delivery: Delivery): void {
    this.queued.push({ handler, applying: { envelope, delivery } });
  }

  async run(manager: Tx): Promise<void> {
    const queued = this.queued.splice(0);
    for (let start = 0; start < queued.length;) {
      const { handler } = queued[start];
      let end = start + 1;
      if (handler.handleRun) {
        while (end < queued.length && queued[end].handler === handler) end++;
        await handler.handleRun(
          manager,
          queued.slice(start, end).map((q) => q.applying),
        );
      } else {
        const { envelope, delivery } = queued[start].applying;
        await handler.handle(manager, envelope, delivery);
      }
      start = end;
    }
  }
}
