import { EventDefinition } from '@app/contracts';
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
  /** Apply this event type in aggregate-version order. Default true. */
  versionGate?: boolean;
}

/** What `@OnEvent` stores in the handler's extras, read back by InboxTransport. */
export interface InboxHandlerExtras {
  inbox: { versionGate: boolean; eventType: string };
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
  const extras: InboxHandlerExtras = {
    inbox: { versionGate: options.versionGate ?? true, eventType: definition.eventType },
  };
  return applyDecorators(
    EventPattern(definition.eventType, extras as unknown as Record<string, unknown>),
    UseFilters(new RethrowToInbox()),
  );
}
