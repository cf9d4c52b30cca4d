/** A payload class: a plain class whose properties carry class-validator rules. */
export type PayloadClass<P extends object = object> = new () => P;

/**
 * One versioned event type: its name, the aggregate it belongs to (which picks the topic),
 * its schema version and the class that validates its payload.
 */
export interface EventDefinition<P extends object = object> {
  readonly eventType: string;
  readonly aggregateType: string;
  readonly schemaVersion: number;
  readonly payload: PayloadClass<P>;
}

/**
 * Declares an event type:
 * `defineEvent({ eventType: 'ParcelShipped', aggregateType: 'Parcel', schemaVersion: 1, payload: ParcelShippedV1Payload })`.
 */
export function defineEvent<P extends object>(definition: EventDefinition<P>): EventDefinition<P> {
  if (!/^[A-Z][A-Za-z0-9]{1,63}$/.test(definition.eventType)) {
    throw new Error(`defineEvent: "${definition.eventType}" is not a PascalCase event type`);
  }
  if (!/^[A-Z][A-Za-z0-9]{1,31}$/.test(definition.aggregateType)) {
    throw new Error(
      `defineEvent: "${definition.aggregateType}" is not a PascalCase aggregate type`,
    );
  }
  return Object.freeze({ ...definition });
}

/** The payload type of an event definition. */
export type PayloadOf<D> = D extends EventDefinition<infer P> ? P : never;
