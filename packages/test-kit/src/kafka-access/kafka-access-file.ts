import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** deploy/kafka/acls.json: the chain's topics and each principal's ACLs, one operator step. */
export const KAFKA_ACCESS_FILE = join(__dirname, '../../../../deploy/kafka/acls.json');

/** What the file says the deployment's prefix is written as, in every name. */
export const TOPIC_PREFIX_PLACEHOLDER = '{TOPIC_PREFIX}';

/** The operations a rule may allow: the services and the CLI need no more. */
export const ACCESS_OPERATIONS = ['READ', 'WRITE', 'DESCRIBE'] as const;
export type AccessOperation = (typeof ACCESS_OPERATIONS)[number];

/** One rule: operations allowed on the topics, or the groups, whose names begin with a prefix. */
export type AccessRule = ({ topic: string } | { group: string }) & {
  operations: AccessOperation[];
};

/** The file as written. */
export interface KafkaAccessFile {
  topics: { name: string; partitions: number }[];
  /** SASL user name → what it is for, and its rules. */
  principals: Record<string, { why?: string; allow: AccessRule[] }>;
}

/** Reads and checks the access file (by default deploy/kafka/acls.json); throws naming what is wrong. */
export function readKafkaAccessFile(path = KAFKA_ACCESS_FILE): KafkaAccessFile {
  const file = JSON.parse(readFileSync(path, 'utf8')) as KafkaAccessFile;
  const problems = accessFileProblems(file);
  if (problems.length > 0) throw new Error(`${path}:\n  ${problems.join('\n  ')}`);
  return file;
}

/** What is wrong with an access file: empty when nothing. */
export function accessFileProblems(file: KafkaAccessFile): string[] {
  const problems: string[] = [];
  if (!Array.isArray(file.topics)) problems.push('"topics" must be a list');
  for (const t of file.topics ?? [])
    if (typeof t.name !== 'string' || !Number.isInteger(t.partitions) || t.partitions < 1)
      problems.push(`topic ${JSON.stringify(t)}: needs a name and partitions >= 1`);
  for (const [principal, { allow }] of Object.entries(file.principals ?? {})) {
    if (!/^[A-Za-z0-9._-]+$/.test(principal))
      problems.push(`principal "${principal}": letters, digits, '.', '_' and '-' only`);
    for (const rule of allow ?? []) {
      const names = ['topic' in rule, 'group' in rule].filter(Boolean).length;
      if (names !== 1) problems.push(`${principal}: a rule names one topic or one group`);
      const bad = (rule.operations ?? []).filter((o) => !ACCESS_OPERATIONS.includes(o));
      if (bad.length > 0 || !rule.operations?.length)
        problems.push(`${principal}: operations must be some of ${ACCESS_OPERATIONS.join(', ')}`);
    }
  }
  return problems;
}
