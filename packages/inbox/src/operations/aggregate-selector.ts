/** An aggregate whose deliveries are wanted, e.g. `{ aggregateType: 'Parcel', aggregateId: '42' }`. */
export interface AggregateSelector {
  aggregateType: string;
  aggregateId: string;
}
