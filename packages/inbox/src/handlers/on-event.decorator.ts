import { EventDefinition } from '@outbox-inbox/messaging';
import {
  applyDecorators,
  ArgumentsHost,
  Catch,
  RpcExceptionFilter,
  UseFilters,
} from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { Observable, throwError } from 'rxjs';

/** Options of `@OnEvent`. */
export interface OnEventOptions {
  /**
   * What an event of this type does when an earlier version of its aggregate is missing (not
   * arrived yet, or dead-lettered):
   * - `hold` (default): it waits, parked, until that version is applied or skipped on purpose
   *   (POST /inbox/gaps/skip); order per aggregate is kept;
   * - `pass`: it takes effect at once, out of order, and still fills its version's slot so
   *   the held types behind it are not blocked. For effects that commute (a counter, a log).
   */
  policy?: 'hold' | 'pass';
  /** The same choice as a flag: false is `policy: 'pass'`. Default true. */
  versionGate?: boolean;
}

/** What `@OnEvent` and `@OnEventBatch` store in the handler's extras, read back by InboxTransport. */
export interface InboxHandlerExtras {
  inbox: { versionGate: boolean; eventType: string; batch: boolean };
}

/**
 * Nest's default RPC filter turns every error into "Internal server error"; the inbox needs the
 * original error to tell a deadlock (retry) from a NonRetryableError (dead-letter).
 */
@Catch()
class RethrowToInbox implements RpcExceptionFilter {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}

/**
 * Marks a controller method as the inbox handler of `definition`'s event type. It runs inside
 * the inbox transaction; take `@Payload()` (the validated envelope) and `@Ctx()` (InboxContext).
 */
export function OnEvent(
  definition: EventDefinition<object>,
  options: OnEventOptions = {},
): MethodDecorator {
  return inboxHandler(definition, options, false);
}

/**
 * Marks a controller method as the inbox handler of `definition`'s event type that takes
 * events in runs: `@Payload()` is an array of validated envelopes, in the order they take
 * effect, and `@Ctx()` an InboxBatchContext. In batched mode (`batchSize` > 1) each run of
 * consecutive events of this type in a batch's effect order comes in one call, so the handler
 * can write all their effects in one statement; otherwise, and when a failed batch is settled
 * message by message, the array holds one event. A run may hold several versions of one
 * aggregate: apply them in array order. One event type has either `@OnEvent` or
 * `@OnEventBatch` handlers, not both.
 */
export function OnEventBatch(
  definition: EventDefinition<object>,
  options: OnEventOptions = {},
): MethodDecorator {
  return inboxHandler(definition, options, true);
}

function inboxHandler(
  definition: EventDefinition<object>,
  options: OnEventOptions,
  batch: boolean,
): MethodDecorator {
  const extras: InboxHandlerExtras = {
    inbox: {
      versionGate: options.versionGate ?? options.policy !== 'pass',
      eventType: definition.eventType,
      batch,
    },
  };
  return applyDecorators(
    EventPattern(definition.eventType, extras as unknown as Record<string, unknown>),
    UseFilters(new RethrowToInbox()),
  );
}
