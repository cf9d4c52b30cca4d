import { MessageHandler, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { HandlerLookup, InboxHandler } from '../apply/inbox-handler.port';
import { InboxError } from '../inbox.errors';
import { InboxBatchContext, InboxContext } from './inbox-context';
import { InboxHandlerExtras } from './on-event.decorator';

/** Where Nest keeps the handlers it registered on a transport (the transport itself). */
export type NestHandlerSource = Pick<Server, 'getHandlers' | 'getHandlerByPattern'>;

/**
 * Adapts the handlers Nest registered (`@OnEvent`, `@OnEventBatch`, plain `@EventPattern`)
 * to the inbox's InboxHandler: the context each kind takes, and a wait for an Observable
 * result. The transport attaches itself once Nest has registered the handlers; until then no
 * event type has a handler, and nothing may drain parked events (`attached` is false).
 */
export class NestHandlers implements HandlerLookup {
  private source?: NestHandlerSource;
  private readonly cache = new Map<string, InboxHandler | undefined>();

  constructor(private readonly consumer: string) {}

  /**
   * Takes the handlers of `source`; refuses (InboxError INVALID_HANDLERS) an event type
   * handled both one by one and in runs.
   */
  attach(source: NestHandlerSource): void {
    checkKinds(source);
    this.source = source;
    this.cache.clear();
  }

  get attached(): boolean {
    return this.source !== undefined;
  }

  /** The handler of an event type; handlers are fixed once attached, so it is resolved once. */
  handlerFor(eventType: string): InboxHandler | undefined {
    if (!this.source) return undefined;
    if (!this.cache.has(eventType)) this.cache.set(eventType, this.resolve(eventType));
    return this.cache.get(eventType);
  }

  private resolve(eventType: string): InboxHandler | undefined {
    const head = this.source?.getHandlerByPattern(eventType);
    if (!head) return undefined;
    // Several handlers of one type form a chain that Nest runs together; gate if any asks to.
    const chain = chainExtras(head);
    const versionGate = chain.some((extras) => extras.versionGate);
    const { consumer } = this;
    // Nest resolves a handler to its value, or to an Observable when it (or an interceptor)
    // returns one; only then is there a stream to wait for (what transformToObservable and
    // lastValueFrom would do, without building one for every plain result).
    const call = async (payload: unknown, context: InboxContext | InboxBatchContext) => {
      const result: unknown = await head(payload, context);
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    };
    if (!chain[0].batch) {
      return {
        versionGate,
        handle: (manager, envelope, delivery) =>
          call(envelope, new InboxContext({ manager, consumer, ...delivery })),
      };
    }
    // Frozen: the handlers chained on one type share the array.
    const handleRun: NonNullable<InboxHandler['handleRun']> = (manager, run) =>
      call(
        Object.freeze(run.map((a) => a.envelope)),
        new InboxBatchContext(
          manager,
          consumer,
          run.map((a) => a.delivery),
        ),
      );
    return {
      versionGate,
      handleRun,
      handle: (manager, envelope, delivery) => handleRun(manager, [{ envelope, delivery }]),
    };
  }
}

/** One event type is handled by `@OnEvent` handlers or by `@OnEventBatch` ones, not both. */
function checkKinds(source: NestHandlerSource): void {
  for (const [pattern, head] of source.getHandlers()) {
    const kinds = new Set(chainExtras(head).map((e) => e.batch));
    if (kinds.size > 1) {
      throw new InboxError(
        'INVALID_HANDLERS',
        `${pattern} has both @OnEventBatch handlers and handlers taking one event (@OnEvent, @EventPattern); declare one kind per event type`,
      );
    }
  }
}

/** The inbox settings of each handler in a Nest handler chain (defaults for plain patterns). */
function chainExtras(head: MessageHandler): Array<{ versionGate: boolean; batch: boolean }> {
  const all: Array<{ versionGate: boolean; batch: boolean }> = [];
  for (let h: MessageHandler | undefined = head; h; h = h.next) {
    const inbox = (h.extras as Partial<InboxHandlerExtras> | undefined)?.inbox;
    all.push({ versionGate: inbox?.versionGate ?? true, batch: inbox?.batch ?? false });
  }
  return all;
}
