import { Message } from 'kafkajs';
import { DeadLetterHeader, withoutInboxHeaders } from '../dead-letter/dead-letter-headers';
import { TopicMessage } from '@outbox-inbox/messaging';
import { InboxError } from '../inbox.errors';

/** Which dead-letter messages to replay; at least one selector is required. */
export interface ReplayRequest {
  messages?: Array<{ partition: number; offset: string }>;
  eventType?: string;
  errorCode?: string;
  all?: boolean;
  /** Replay messages that were replayed before too. Default false. */
  includeReplayed?: boolean;
  /**
   * Replay every selected message, whatever topic it came from; it can only be this consumer's
   * retry topic, the one topic a replay writes to (no other group reads it).
   */
  targetTopic?: string;
  /** List what would be replayed, and publish and record nothing. Default false. */
  dryRun?: boolean;
}

/** A dead letter named by its place in the dead-letter topic. */
export interface DeadLetterRef {
  partition: number;
  offset: string;
}

/** What a replay did, message by message; nothing selected is left out of it. */
export interface ReplayResult {
  /** Dead letters the selectors matched. */
  matched: number;
  /** Published to the consumer's retry topic (`targetTopic`), and recorded. */
  replayed: Array<DeadLetterRef & { targetTopic: string }>;
  /** Matched, replayed before, and `includeReplayed` not set. */
  skippedAlreadyReplayed: number;
  /** Matched, but naming no source topic of this consumer (and no targetTopic was given). */
  skippedNotOwnTopic: Array<DeadLetterRef & { sourceTopic: string | null }>;
  /** The publish that failed; the replay stopped there (the rest was not tried). */
  failed?: DeadLetterRef & { targetTopic: string; error: string };
  /** Present on a dry run: nothing was published or recorded (`replayed` is empty). */
  dryRun?: true;
  /** On a dry run: what a replay with the same request would publish, and where. */
  wouldReplay?: Array<DeadLetterRef & { targetTopic: string }>;
}

/** The consumer a replay is planned for. */
export interface ReplayScope {
  /** Its retry topic: the one topic a replay publishes to. */
  retryTopic: string;
  /** The topics it reads (its retry topic is added): dead letters from others are not its own. */
  topics: string[];
}

/** What a replay will publish, and the result of everything it leaves out. */
export interface ReplayPlan {
  /** The dead letters to publish to the retry topic, in the order the topic holds them. */
  toPublish: TopicMessage[];
  /** Matched and skipped as decided; `replayed` is empty until they are published. */
  result: ReplayResult;
}

/** The key of a dead letter in `replayedBefore` and in a request's `messages`. */
export const deadLetterKey = (ref: DeadLetterRef): string => `${ref.partition}:${ref.offset}`;

/** Why a targetTopic is refused: a replay writes to the consumer's retry topic only. */
export function targetTopicRule(retryTopic: string): string {
  return `targetTopic can only be this consumer's retry topic ${retryTopic}: a replay reaches no other consumer group`;
}

/**
 * Refuses (InboxError INVALID_OPTIONS) a request that selects nothing, or that names a target
 * other than the retry topic.
 */
export function checkReplayRequest(request: ReplayRequest, retryTopic: string): void {
  const { messages, eventType, errorCode, all } = request;
  if (!all && !messages?.length && !eventType && !errorCode) {
    throw new InboxError('INVALID_OPTIONS', 'replay needs messages, eventType, errorCode or all');
  }
  if (request.targetTopic !== undefined && request.targetTopic !== retryTopic) {
    throw new InboxError('INVALID_OPTIONS', targetTopicRule(retryTopic));
  }
}

/**
 * Decides a replay from what the dead-letter topic holds and which of its messages were
 * replayed before (`replayedBefore`, by deadLetterKey): the ones the request's selectors match
 * (all of them must), less those replayed before (unless `includeReplayed`) and those whose
 * source topic this consumer does not read (unless `targetTopic` says to replay them anyway).
 */
export function planReplay(
  deadLetters: TopicMessage[],
  replayedBefore: { has(key: string): boolean },
  request: ReplayRequest,
  scope: ReplayScope,
): ReplayPlan {
  const { messages, eventType, errorCode } = request;
  const wanted = new Set(messages?.map(deadLetterKey));
  const selected = deadLetters.filter((m) => {
    if (wanted.size > 0 && !wanted.has(deadLetterKey(m))) return false;
    if (eventType && m.headers['event-type'] !== eventType) return false;
    if (errorCode && m.headers[DeadLetterHeader.errorCode] !== errorCode) return false;
    return true;
  });
  const fresh = selected.filter(
    (m) => request.includeReplayed || !replayedBefore.has(deadLetterKey(m)),
  );
  // Dead letters of messages this consumer read: from its topics, or replays that failed again.
  const ownTopics = new Set([...scope.topics, scope.retryTopic]);
  const skippedNotOwnTopic: ReplayResult['skippedNotOwnTopic'] = [];
  const toPublish = fresh.filter((m) => {
    const source = m.headers[DeadLetterHeader.sourceTopic];
    if (request.targetTopic !== undefined || (source !== undefined && ownTopics.has(source))) {
      return true;
    }
    skippedNotOwnTopic.push({
      partition: m.partition,
      offset: m.offset,
      sourceTopic: source ?? null,
    });
    return false;
  });
  return {
    toPublish,
    result: {
      matched: selected.length,
      replayed: [],
      skippedAlreadyReplayed: selected.length - fresh.length,
      skippedNotOwnTopic,
    },
  };
}

/** What a dry run answers: the plan's result, and what it would publish, and where. */
export function dryRunResult(plan: ReplayPlan, retryTopic: string): ReplayResult {
  const wouldReplay = plan.toPublish.map(({ partition, offset }) => ({
    partition,
    offset,
    targetTopic: retryTopic,
  }));
  return { ...plan.result, dryRun: true, wouldReplay };
}

/**
 * The message a replay publishes for a dead letter: its key (so the aggregate's replays stay
 * in one partition, in order) and value, its headers without the inbox's failure headers, and
 * where it was replayed from.
 */
export function replayMessage(deadLetter: TopicMessage, deadLetterTopic: string): Message {
  return {
    key: deadLetter.key,
    value: deadLetter.value,
    headers: {
      ...withoutInboxHeaders(deadLetter.headers),
      [DeadLetterHeader.replayOf]: `${deadLetterTopic}/${deadLetter.partition}@${deadLetter.offset}`,
    },
  };
}
