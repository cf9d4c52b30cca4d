/** Which DEAD rows to requeue: by ids, by fields, or `all: true`. At least one is required. */
export interface DeadRowFilter {
  ids?: string[];
  eventType?: string;
  aggregateType?: string;
  aggregateId?: string;
  all?: boolean;
}

/** One condition of a DeadRowFilter: a column equal to a value, or `id` in a list. */
export type DeadRowCondition =
  | { column: 'id'; values: string[] }
  | { column: 'event_type' | 'aggregate_type' | 'aggregate_id'; value: string };

/**
 * The filter's conditions on t_outbox, in a fixed order, for each dialect to write in its own
 * placeholders. Empty for `{ all: true }` and for an empty filter (which the caller refuses).
 */
export function deadRowConditions(filter: DeadRowFilter): DeadRowCondition[] {
  const conditions: DeadRowCondition[] = [];
  if (filter.ids?.length) conditions.push({ column: 'id', values: filter.ids });
  if (filter.eventType) conditions.push({ column: 'event_type', value: filter.eventType });
  if (filter.aggregateType) {
    conditions.push({ column: 'aggregate_type', value: filter.aggregateType });
  }
  if (filter.aggregateId) conditions.push({ column: 'aggregate_id', value: filter.aggregateId });
  return conditions;
}
