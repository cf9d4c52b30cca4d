import { EventEnvelope } from '@outbox-inbox/messaging';
import { EntityManager } from 'typeorm';
import { EffectQueue } from './effect-queue';
import { Delivery, InboxHandler } from './inbox-handler.port';

describe('EffectQueue', () => {
  const manager = {} as EntityManager;
  const delivery = (offset: number): Delivery => ({
    topic: 't',
    partition: 0,
    offset: String(offset),
    headers: {},
  });
  const event = (key: string) => ({ eventKey: key }) as EventEnvelope;

  /** Records every call: a run-taking handler as [name, keys...], a single one as [name, key]. */
  function handlers(calls: string[][]) {
    const runs: InboxHandler = {
      versionGate: true,
      handle: () => Promise.reject(new Error('runs are taken whole')),
      handleRun: async (_m, run) => {
        calls.push(['runs', ...run.map((a) => `${a.envelope.eventKey}@${a.delivery.offset}`)]);
      },
    };
    const otherRuns: InboxHandler = {
      ...runs,
      handleRun: async (_m, run) => {
        calls.push(['other', ...run.map((a) => a.envelope.eventKey)]);
      },
    };
    const single: InboxHandler = {
      versionGate: true,
      handle: async (_m, envelope) => {
        calls.push(['single', envelope.eventKey]);
      },
    };
    return { runs, otherRuns, single };
  }

  it('hands consecutive events of a run-taking handler over in one call, in queue order', async () => {
    const calls: string[][] = [];
    const { runs, otherRuns, single } = handlers(calls);
    const queue = new EffectQueue();
    queue.add(runs, event('a'), delivery(1));
    queue.add(runs, event('b'), delivery(2));
    queue.add(single, event('c'), delivery(3));
    queue.add(single, event('d'), delivery(4));
    queue.add(runs, event('e'), delivery(5));
    queue.add(otherRuns, event('f'), delivery(6));
    queue.add(otherRuns, event('g'), delivery(7));
    queue.add(runs, event('h'), delivery(8));
    await queue.run(manager);
    expect(calls).toEqual([
      ['runs', 'a@1', 'b@2'],
      ['single', 'c'],
      ['single', 'd'],
      ['runs', 'e@5'],
      ['other', 'f', 'g'],
      ['runs', 'h@8'],
    ]);
  });

  it('runs each queued call once: a second run() has nothing to do', async () => {
    const calls: string[][] = [];
    const { runs } = handlers(calls);
    const queue = new EffectQueue();
    queue.add(runs, event('a'), delivery(1));
    await queue.run(manager);
    await queue.run(manager);
    expect(calls).toEqual([['runs', 'a@1']]);
  });

  it('stops at the first failing call and lets its error through (the batch then rolls back)', async () => {
    const calls: string[][] = [];
    const { single } = handlers(calls);
    const failing: InboxHandler = {
      versionGate: true,
      handle: () => Promise.reject(new Error('boom')),
    };
    const queue = new EffectQueue();
    queue.add(single, event('a'), delivery(1));
    queue.add(failing, event('b'), delivery(2));
    queue.add(single, event('c'), delivery(3));
    await expect(queue.run(manager)).rejects.toThrow('boom');
    expect(calls).toEqual([['single', 'a']]);
  });
});
