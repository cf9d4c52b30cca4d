import { EventRegistry } from '@outbox-inbox/messaging';
import { isNewerSchema } from '../decode-event';
import { HandlerLookup } from './inbox-handler.port';
import { HoldRule } from './inbox-processor';

/**
 * The module's hold rule: an event of a newer schema than `registry` knows is held (parked)
 * when a handler of this consumer would apply it; a type nobody here handles is recorded and
 * skipped instead, as any unhandled type is.
 */
export function holdNewerSchema(handlers: HandlerLookup, registry: EventRegistry): HoldRule {
  return (envelope) =>
    handlers.handlerFor(envelope.eventType) !== undefined && isNewerSchema(envelope, registry);
}
