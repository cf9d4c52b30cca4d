import { EventDefinition } from './event-definition';

/**
 * The event types a process knows, by `eventType` and `schemaVersion` (the major version of
 * the event type's contract: a change that an older reader would misread bumps it; an added
 * optional field does not). Consumers look up the payload class of an incoming event here.
 */
export class EventRegistry {
  private readonly byKey = new Map<string, EventDefinition>();
  /**
   * Each type's definitions by schema version, and its latest: a consumer asks both for every
   * message, so neither builds a key or walks the whole registry.
   */
  private readonly byType = new Map<
    string,
    { versions: Map<number, EventDefinition>; latest: EventDefinition }
  >();

  constructor(definitions: Iterable<EventDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: EventDefinition): this {
    const key = `${definition.eventType}@${definition.schemaVersion}`;
    const existing = this.byKey.get(key);
    if (existing && existing !== definition)
      throw new Error(`EventRegistry: ${key} registered twice`);
    this.byKey.set(key, definition);
    const type = this.byType.get(definition.eventType);
    if (!type) {
      this.byType.set(definition.eventType, {
        versions: new Map([[definition.schemaVersion, definition]]),
        latest: definition,
      });
    } else {
      type.versions.set(definition.schemaVersion, definition);
      if (definition.schemaVersion > type.latest.schemaVersion) type.latest = definition;
    }
    return this;
  }

  find(eventType: string, schemaVersion: number): EventDefinition | undefined {
    return this.byType.get(eventType)?.versions.get(schemaVersion);
  }

  /** The highest schema version registered for `eventType`; undefined when none is. */
  latest(eventType: string): EventDefinition | undefined {
    return this.byType.get(eventType)?.latest;
  }

  list(): EventDefinition[] {
    return [...this.byKey.values()];
  }
}
