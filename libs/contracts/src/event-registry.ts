import { EventDefinition } from './event-definition';

/**
 * The event types a process knows, by `eventType` and `schemaVersion`. Consumers look up the
 * payload class of an incoming event here; an event type that is not registered is a
 * permanent error (it goes to the dead-letter topic).
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

  list(): EventDefinition[] {
    return [...this.byKey.values()];
  }
}
