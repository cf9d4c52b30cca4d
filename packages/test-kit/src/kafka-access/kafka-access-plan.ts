import {
  AccessOperation,
  KafkaAccessFile,
  readKafkaAccessFile,
  TOPIC_PREFIX_PLACEHOLDER,
} from './kafka-access-file';

/** One ACL to create: ALLOW `operation` to `User:<principal>` from any host, PREFIXED. */
export interface PlannedAcl {
  principal: string;
  resourceType: 'TOPIC' | 'GROUP';
  /** The PREFIXED pattern: every topic or group whose name begins with it. */
  prefix: string;
  operation: AccessOperation;
}

/** The topics and ACLs of one deployment: the file with its prefix filled in. */
export interface KafkaAccessPlan {
  topics: { name: string; partitions: number }[];
  acls: PlannedAcl[];
  /** The principals the file names: the SASL users the cluster must have. */
  principals: string[];
}

/**
 * The file's topics and rules for the deployment whose topics and groups begin with
 * `topicPrefix` (TOPIC_PREFIX; 'trading.' by default, a per-run one in tests).
 */
export function kafkaAccessPlan(
  topicPrefix: string,
  file: KafkaAccessFile = readKafkaAccessFile(),
): KafkaAccessPlan {
  const fill = (name: string) => name.split(TOPIC_PREFIX_PLACEHOLDER).join(topicPrefix);
  const acls: PlannedAcl[] = [];
  for (const [principal, { allow }] of Object.entries(file.principals))
    for (const rule of allow)
      for (const operation of rule.operations)
        acls.push({
          principal,
          resourceType: 'topic' in rule ? 'TOPIC' : 'GROUP',
          prefix: fill('topic' in rule ? rule.topic : rule.group),
          operation,
        });
  return {
    topics: file.topics.map((t) => ({ name: fill(t.name), partitions: t.partitions })),
    acls,
    principals: Object.keys(file.principals),
  };
}
