import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The HTTP header a caller may set to name the business flow its request belongs to. */
export const CORRELATION_HEADER = 'x-correlation-id';

const storage = new AsyncLocalStorage<string>();
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The correlation id of the request or message being handled, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) under `correlationId`. */
export function runWithCorrelation<T>(correlationId: string, fn: () => T): T {
  return storage.run(correlationId, fn);
}

/**
 * A caller's correlation id when it is well-formed (1-128 of [A-Za-z0-9._:-], the envelope's
 * limit), otherwise a new random one: a malformed header never reaches logs or events.
 */
export function acceptCorrelationId(value: unknown): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  return typeof candidate === 'string' && VALID.test(candidate) ? candidate : randomUUID();
}
