import { EventDefinition } from './event-definition';

/**
 * The event types a process knows, by `eventType` and `schemaVersion` (the major version of
 * the event type's contract: a change that an older reader would misread bumps it; an added
 * optional field does not). Consumers look up the payload class of an incoming event here.
 */
export class EventRegistry {
  private readonly byKey = new Map<string, EventDefinition>();

  constructor(definitions: Iterable<EventDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: EventDefinition): this {
    const key = `${definition.eventType}@${definition.schemaVersion}`;
    const existing = this.byKey.get(key);
    if (existing && existing !== definition)
      throw new Error(`EventRegistry: ${key} registered twice`);
    this.byKey.set(key, definition);
    return this;
  }

  find(eventType: string, schemaVersion: number): EventDefinition | undefined {
    return this.byKey.get(`${eventType}@${schemaVersion}`);
  }

  /** The highest schema version registered for `eventType`; undefined when none is. */
  latest(eventType: string): EventDefinition | undefined {
    let latest: EventDefinition | undefined;
    for (const definition of this.byKey.values()) {
      if (definition.eventType !== eventType) continue;
      if (!latest || definition.schemaVersion > latest.schemaVersion) latest = definition;
    }
    return latest;
  }

  list(): EventDefinition[] {
    return [...this.byKey.values()];
  }
}
