import { TRADING_EVENTS } from '@app/contracts';
import { ConsumerSnapshot } from '../snapshot';
import { eventStandings } from './event-accounting';
import { groupBy, Rule, violation } from './rule-context';

/** Every event of a consumer's topics is recorded, parked, dead-lettered or still in flight. */
export const everyEventAccountedFor: Rule = ({ snapshot }) => {
  const lost = eventStandings(snapshot).filter((s) => s.standing === 'lost');
  return lost.length === 0
    ? []
    : [
        violation(
          'every-event-accounted-for',
          `${lost.length} events were consumed past but are neither in an inbox, parked nor dead-lettered`,
          lost.map((s) => `${s.consumer} ${s.id}`),
        ),
      ];
};

/**
 * No consumer applied an aggregate's versions out of order or twice: per aggregate, the gate's
 * last version is the top of an unbroken run of recorded versions, nothing parked lies at or
 * below it (that would have been skipped), and nothing marked parked is missing from the lot.
 */
export const versionsAppliedInOrder: Rule = ({ snapshot }) =>
  snapshot.consumers.flatMap((consumer) => {
    const problems = versionProblems(consumer);
    return problems.length === 0
      ? []
      : [
          violation(
            'versions-applied-in-order',
            `${consumer.name}: ${problems.length} aggregates break the version order`,
            problems,
          ),
        ];
  });

const AGGREGATE_OF = new Map<string, string>(
  TRADING_EVENTS.map((e) => [e.eventType, e.aggregateType]),
);

function versionProblems(consumer: ConsumerSnapshot): string[] {
  const problems: string[] = [];
  const parked = groupBy(consumer.parked, (p) => `${p.aggregateType}:${p.aggregateId}`);
  const parkedKeys = new Set(consumer.parked.map((p) => p.eventKey));
  // The inbox keeps event keys (eventType:aggregateId:version); the gate is per aggregate.
  const takenIn = groupBy(
    consumer.inbox.filter((r) => r.outcome === 'applied' || r.outcome === 'ignored'),
    (r) => `${AGGREGATE_OF.get(r.eventType) ?? '?'}:${r.eventKey.split(':')[1]}`,
  );
  for (const gate of consumer.gates) {
    const name = `${gate.aggregateType}:${gate.aggregateId}`;
    const versions = new Set(
      (takenIn.get(name) ?? []).map((r) => Number(r.eventKey.split(':')[2])),
    );
    const first = consumer.gateStart === 'version-1' ? 1 : Math.min(...versions);
    const above = [...versions].filter((v) => v > gate.lastVersion);
    if (above.length > 0)
      problems.push(`${name}: versions ${above.join(',')} applied beyond last ${gate.lastVersion}`);
    for (let v = first; v <= gate.lastVersion; v += 1) {
      if (!versions.has(v)) {
        problems.push(`${name}: version ${v} skipped (last applied ${gate.lastVersion})`);
        break;
      }
    }
    const lot = parked.get(name) ?? [];
    const stuck = lot.filter((p) => p.aggregateVersion <= gate.lastVersion + 1);
    if (stuck.length > 0)
      problems.push(
        `${name}: parked versions ${stuck.map((p) => p.aggregateVersion).join(',')} should have been applied`,
      );
    if (lot.length !== gate.parkedCount)
      problems.push(`${name}: gate counts ${gate.parkedCount} parked, the lot holds ${lot.length}`);
  }
  const missing = consumer.inbox.filter(
    (r) => r.outcome === 'parked' && !parkedKeys.has(r.eventKey),
  );
  for (const r of missing) problems.push(`${r.eventKey}: marked parked, not in the lot`);
  return problems;
}
