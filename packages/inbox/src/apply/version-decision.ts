/** What the version gate does with an incoming event. */
export type VersionDecision = 'apply' | 'stale' | 'park';

/**
 * The version gate's rule. `last` is the last applied version of the aggregate for this
 * consumer (undefined when none): an unseen aggregate expects version 1, which holds when the
 * consumer reads its topics from the start.
 *
 * There is no "accept the first version seen" mode any more: if that first event was
 * dead-lettered, the next one became the baseline and the replayed one was stale forever. A
 * consumer that joins after the early events are gone marks the versions it will never see as
 * skipped instead (InboxOperations.skipVersion / POST /inbox/gaps/skip), with a reason.
 */
export function decideVersion(last: number | undefined, incoming: number): VersionDecision {
  if (last === undefined) return incoming === 1 ? 'apply' : 'park';
  if (incoming <= last) return 'stale';
  return incoming === last + 1 ? 'apply' : 'park';
}
