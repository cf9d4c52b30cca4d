import { LoggerService } from '@nestjs/common';
import { backoffDelay } from '@outbox-inbox/database';
import { TopicRefusalCode, topicRemedy } from '../publisher/topic-unavailable';
import { OutboxBackoffOptions } from './outbox-relay.options';
import { RelayFaults } from './relay-faults';

/** Rows of one topic the relay hands back unsent, and when they are due again. */
export interface TopicHold {
  topic: string;
  ids: string[];
  delayMs: number;
}

/**
 * The relay's side of a missing or denied topic: records the fault (one per topic, in
 * RelayFaults), logs one line when it starts and one when the topic takes messages again, and
 * spaces the rows' next look with the relay's backoff, growing with the fault's rounds. The
 * rows keep their attempts: no message is at fault, so none goes DEAD for it.
 */
export class TopicHolds {
  constructor(
    private readonly faults: RelayFaults,
    private readonly logger: LoggerService,
    private readonly backoff: OutboxBackoffOptions,
  ) {}

  /** Records a failed round for each topic of `rows` and groups them by topic with their delay. */
  hold(rows: Array<{ id: string; topic: string; code: TopicRefusalCode }>): TopicHold[] {
    const byTopic = new Map<string, { code: TopicRefusalCode; ids: string[] }>();
    for (const { id, topic, code } of rows) {
      const entry = byTopic.get(topic) ?? { code, ids: [] };
      entry.ids.push(id);
      byTopic.set(topic, entry);
    }
    return [...byTopic].map(([topic, { code, ids }]) => {
      const remedy = topicRemedy(topic, code);
      if (this.faults.record({ kind: 'topic', subject: topic, code, remedy })) {
        this.logger.error(
          `outbox rows for topic ${topic} wait: Kafka answers ${code}; ${remedy}. ` +
            'They keep their attempts and are sent once it takes messages.',
        );
      }
      const rounds = this.faults.list().find((f) => f.kind === 'topic' && f.subject === topic);
      return { topic, ids, delayMs: backoffDelay(this.backoff, rounds?.rounds ?? 1) };
    });
  }

  /** `topics` took messages: their faults end, with one log line each. */
  cleared(topics: Iterable<string>): void {
    const open = this.faults.list().filter((f) => f.kind === 'topic');
    if (open.length === 0) return;
    for (const topic of new Set(topics)) {
      const fault = open.find((f) => f.subject === topic);
      if (!fault) continue;
      this.faults.clear('topic', topic);
      this.logger.log(
        `topic ${topic} takes outbox messages again (${fault.code} since ${fault.since}, ${fault.rounds} rounds)`,
      );
    }
  }
}
