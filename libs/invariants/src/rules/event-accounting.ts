import { ConsumerSnapshot, Snapshot, TopicMessage } from '../snapshot';

/** Where one event stands for one consumer. */
export type EventStanding = 'recorded' | 'parked' | 'dead-lettered' | 'in-flight' | 'lost';

/** One message of a consumer's topics and where it stands. */
export interface StandingOf {
  consumer: string;
  /** The event key, or `topic:partition:offset` for a message that carries none. */
  id: string;
  standing: EventStanding;
}

/**
 * Decides, for every event of a consumer's topics, whether it is accounted for: in the inbox,
 * parked, dead-lettered, or not yet consumed (at or past the group's committed offset, read
 * before the databases). An event the group committed past that left no trace is lost.
 */
export function eventStandings(snapshot: Snapshot): StandingOf[] {
  return snapshot.consumers.flatMap((consumer) => standingsOf(consumer, snapshot.topicMessages));
}

function standingsOf(consumer: ConsumerSnapshot, messages: TopicMessage[]): StandingOf[] {
  const recorded = new Set(
    consumer.inbox.filter((r) => r.outcome !== 'parked').map((r) => r.eventKey),
  );
  const parked = new Set(consumer.parked.map((p) => p.eventKey));
  const deadKeys = new Set(consumer.deadLetters.map((d) => d.eventKey).filter(Boolean));
  const deadPositions = new Set(
    consumer.deadLetters.map((d) => `${d.sourceTopic}:${d.sourcePartition}:${d.sourceOffset}`),
  );
  const ofConsumer = messages.filter((m) => consumer.topics.includes(m.topic));
  const copies = new Map<string, TopicMessage[]>();
  for (const m of ofConsumer) {
    const id = m.eventKey ?? `${m.topic}:${m.partition}:${m.offset}`;
    copies.set(id, [...(copies.get(id) ?? []), m]);
  }
  const standings: StandingOf[] = [];
  for (const [id, ms] of copies) {
    const unconsumed = ms.some((m) => {
      const committed = consumer.committed[`${m.topic}:${m.partition}`];
      return committed === undefined || m.offset >= committed;
    });
    const deadLettered =
      deadKeys.has(id) ||
      ms.some((m) => deadPositions.has(`${m.topic}:${m.partition}:${m.offset}`));
    const standing: EventStanding = recorded.has(id)
      ? 'recorded'
      : parked.has(id)
        ? 'parked'
        : deadLettered
          ? 'dead-lettered'
          : unconsumed
            ? 'in-flight'
            : 'lost';
    standings.push({ consumer: consumer.name, id, standing });
  }
  return standings;
}
