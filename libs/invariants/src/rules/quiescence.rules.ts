import { eventStandings } from './event-accounting';
import { Rule, violation } from './rule-context';

/**
 * At rest, nothing may still be moving: no unsent outbox row, no event its consumer has not
 * reached, no fulfillment still granting. Only checked when the caller says it is at rest.
 */
export const nothingInFlight: Rule = ({ snapshot, quiescent }) => {
  if (!quiescent) return [];
  const moving = [
    ...Object.entries(snapshot.outbox).flatMap(([service, rows]) =>
      rows
        .filter((r) => r.status === 'NEW' || r.status === 'SENDING')
        .map((r) => `${service} outbox ${r.id} ${r.status}`),
    ),
    ...eventStandings(snapshot)
      .filter((s) => s.standing === 'in-flight')
      .map((s) => `${s.consumer} has not consumed ${s.id}`),
    ...snapshot.fulfillments
      .filter((f) => f.status === 'INIT' || f.status === 'FAILED')
      .map((f) => `fulfillment of order ${f.orderId} ${f.status}`),
  ];
  return moving.length === 0
    ? []
    : [
        violation(
          'nothing-in-flight',
          `${moving.length} items are still in flight at rest`,
          moving,
        ),
      ];
};
