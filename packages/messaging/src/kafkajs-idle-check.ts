import { nodeRequire } from './node-require';

/**
 * kafkajs 2.2.x keeps a 1 ms timer loop running on every broker connection once its first
 * response arrives (tulios/kafkajs#1556, #1704, open upstream): `scheduleCheckPendingRequests`
 * computes `throttledUntil - now`, which is negative when the connection is not throttled, and
 * with nothing pending it still schedules a check that far ahead, which schedules the next one,
 * and so on for the life of the connection. Each consumer, producer and admin connection of a
 * process wakes it about a thousand times a second to find nothing to do.
 *
 * This skips that one case: nothing pending and no throttle in force. Nothing can be waiting
 * then, and kafkajs checks again by itself whenever it has reason to: `push` schedules a check
 * as soon as it queues a request, and every response calls `checkPendingRequests`. Every other
 * case (requests pending, or a throttle to wait out) runs kafkajs's own code unchanged.
 *
 * Installed once per process, on the prototype kafkajs's connections share; does nothing when
 * kafkajs's internals are not the expected ones (another version).
 */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
}

const INSTALLED = Symbol.for('outbox-inbox.kafkajs-idle-check');

export function installKafkajsIdleCheck(): boolean {
  let RequestQueue: { prototype: RequestQueueInternals & { [INSTALLED]?: true } } | undefined;
  try {
    RequestQueue = nodeRequire('kafkajs/src/network/requestQueue') as typeof RequestQueue;
  } catch {
    return false;
  }
  const prototype = RequestQueue?.prototype;
  if (!prototype || typeof prototype.scheduleCheckPendingRequests !== 'function') return false;
  if (prototype[INSTALLED]) return true;
  const schedule = prototype.scheduleCheckPendingRequests;
  prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  prototype[INSTALLED] = true;
  return true;
}
