/** How the gate treats an aggregate it has never seen. */
export type GateStart = 'version-1' | 'first-seen';

/** What the version gate does with an incoming event. */
export type VersionDecision = 'apply' | 'stale' | 'park';

/**
 * The version gate's rule. `last` is the last applied version of the aggregate for this
 * consumer (undefined when none). With `version-1` an unseen aggregate expects version 1; with
 * `first-seen` its first event is accepted whatever its version (for a consumer that joins a
 * topic whose early events are gone).
 */
export function decideVersion(
  last: number | undefined,
  incoming: number,
  start: GateStart,
): VersionDecision {
  if (last === undefined) {
    if (start === 'first-seen' || incoming === 1) return 'apply';
    return 'park';
  }
  if (incoming <= last) return 'stale';
  return incoming === last + 1 ? 'apply' : 'park';
}
