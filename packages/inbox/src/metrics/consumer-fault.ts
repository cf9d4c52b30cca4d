import { brokerAccessRefusalOf, brokerAccessRemedy } from '@outbox-inbox/messaging';
import { Kafka } from 'kafkajs';

/**
 * Why the consumer is not reading now, for /health/details and /inbox/stats: Kafka's code,
 * what it concerns (`kafka` for the cluster as a whole, a topic, the group) and what an operator
 * does about it. Set while the consumer cannot start or has stopped; cleared when it joins its
 * group again.
 */
export interface ConsumerFault {
  code: string;
  /** `kafka`, the topics refused, or the consumer group. */
  subject: string;
  remedy: string;
  /** When this fault began (ISO 8601). */
  since: string;
}

/** What the fault concerns, as the consumer knows it. */
export interface ConsumerFaultContext {
  /** Every topic the consumer reads (sources and its retry topic). */
  topics: string[];
  groupId: string;
}

interface ErrorLink {
  type?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

/** The Kafka error code (kafkajs's `type`) on `error` or along its cause chain. */
export function kafkaCodeOf(error: unknown): string | undefined {
  let e = error as ErrorLink | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if (typeof e.type === 'string') return e.type;
    e = (e.originalError ?? e.cause) as ErrorLink | undefined;
  }
  return undefined;
}

/**
 * The fault `error` stands for. Authorization refusals name what to grant (`deniedTopics`, when
 * the caller could tell which topics are refused, else every topic the consumer reads); a
 * refused login or certificate names the setting to fix; anything else keeps kafkajs's code or
 * message. None of them holds a credential: kafkajs's messages carry none.
 */
export function consumerFaultOf(
  error: unknown,
  context: ConsumerFaultContext,
  deniedTopics?: string[],
): Omit<ConsumerFault, 'since'> {
  const access = brokerAccessRefusalOf(error);
  if (access) return { code: access, subject: 'kafka', remedy: brokerAccessRemedy(access) };
  const code = kafkaCodeOf(error);
  if (code === 'TOPIC_AUTHORIZATION_FAILED') {
    const topics = deniedTopics?.length ? deniedTopics : context.topics;
    return {
      code,
      subject: topics.join(', '),
      remedy: `grant this principal READ on ${topics.join(', ')} (acls.json, npm run kafka:access); no restart: the consumer tries again with its backoff`,
    };
  }
  if (code === 'GROUP_AUTHORIZATION_FAILED') {
    return {
      code,
      subject: context.groupId,
      remedy: `grant this principal READ on the group ${context.groupId} (acls.json, npm run kafka:access); no restart: the consumer tries again with its backoff`,
    };
  }
  if ((error as Error)?.name === 'KafkaJSGroupCoordinatorNotFound') {
    // kafkajs asks each broker for the coordinator and drops their answers: a broker's
    // GROUP_AUTHORIZATION_FAILED reaches us only as "no coordinator found".
    return {
      code: 'GROUP_COORDINATOR_NOT_FOUND',
      subject: context.groupId,
      remedy: `no broker named a coordinator for the group ${context.groupId}: on a cluster with ACLs that is how kafkajs reports GROUP_AUTHORIZATION_FAILED, so grant this principal READ on the group (acls.json, npm run kafka:access); else the cluster is still electing one. No restart: the consumer tries again with its backoff`,
    };
  }
  return {
    code: code ?? (error as Error)?.name ?? 'Error',
    subject: 'kafka',
    remedy: (error as Error)?.message ?? String(error),
  };
}

/**
 * Whether `next` says less than `current` about the same refusal: once the group's
 * GROUP_AUTHORIZATION_FAILED is known (from a heartbeat or a commit), the restarts that follow
 * only find no coordinator.
 */
export function hidesCause(current: ConsumerFault | undefined, next: { code: string }): boolean {
  return (
    current?.code === 'GROUP_AUTHORIZATION_FAILED' && next.code === 'GROUP_COORDINATOR_NOT_FOUND'
  );
}

/** The fault in one line: code, subject, remedy. */
export function describeConsumerFault(fault: ConsumerFault): string {
  return `the consumer is not reading since ${fault.since}: ${fault.code} on ${fault.subject}; ${fault.remedy}`;
}

/**
 * Which of `topics` the cluster refuses to describe to this principal (TOPIC_AUTHORIZATION_FAILED
 * asked one by one): kafkajs's error does not say which topic of a subscription was refused.
 * Empty when the cluster cannot be asked.
 */
export async function deniedTopics(kafka: Kafka, topics: string[]): Promise<string[]> {
  // No retries: a topic that is missing (UNKNOWN_TOPIC_OR_PARTITION, retriable) answers at once.
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    const denied: string[] = [];
    for (const topic of topics) {
      try {
        await admin.fetchTopicMetadata({ topics: [topic] });
      } catch (error) {
        if (kafkaCodeOf(error) === 'TOPIC_AUTHORIZATION_FAILED') denied.push(topic);
      }
    }
    return denied;
  } catch {
    return [];
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
