/**
 * The operator step of a secured cluster: creates the trading chain's topics and each
 * principal's ACLs (deploy/kafka/acls.json, PREFIXED on the topic prefix) on any cluster,
 * as an admin (a super user, or a principal allowed to create topics and ACLs):
 *   npm run kafka:access -- [--topic-prefix P] [--file F]   apply them, idempotently
 *   npm run kafka:access -- --print [--topic-prefix P]      print them as kafka-topics.sh and
 *                                                           kafka-acls.sh commands instead
 * The admin connects with KAFKA_BROKERS, KAFKA_SASL_MECHANISM (plain, scram-sha-256 or
 * scram-sha-512), KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD (or KAFKA_SASL_PASSWORD_FILE),
 * KAFKA_SSL=true and KAFKA_SSL_CA_FILE (unset: the system's CAs). P defaults to $TOPIC_PREFIX,
 * else 'trading.'.
 * It imports the kit's kafka-access entry alone: docker compose runs it as a bundle
 * (dist/scripts/kafka-access.js) on the runtime image, which has none of the kit's database
 * drivers.
 */
import { parseArgs } from 'node:util';
import { Kafka, KafkaConfig, logLevel } from 'kafkajs';
import { kafkaSecurityFromEnv } from '@app/config';
import {
  applyKafkaAccess,
  KAFKA_ACCESS_FILE,
  kafkaAccessCommands,
  kafkaAccessPlan,
  readKafkaAccessFile,
} from '@outbox-inbox/test-kit/kafka-access';

/** The admin's connection: KAFKA_BROKERS, and the security settings every client reads. */
function adminConnection(env: NodeJS.ProcessEnv): KafkaConfig {
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS is not set');
  return {
    clientId: 'kafka-access',
    brokers,
    logLevel: logLevel.NOTHING,
    ...kafkaSecurityFromEnv(env),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'topic-prefix': { type: 'string', default: process.env.TOPIC_PREFIX ?? 'trading.' },
      file: { type: 'string', default: KAFKA_ACCESS_FILE },
      print: { type: 'boolean', default: false },
    },
  });
  const plan = kafkaAccessPlan(values['topic-prefix'], readKafkaAccessFile(values.file));
  if (values.print) {
    const bootstrap = process.env.KAFKA_BROKERS || '<bootstrap>';
    process.stdout.write(`${kafkaAccessCommands(plan, bootstrap).join('\n')}\n`);
    return;
  }
  const admin = new Kafka(adminConnection(process.env)).admin();
  await admin.connect();
  try {
    await applyKafkaAccess(admin, plan);
  } finally {
    await admin.disconnect();
  }
  process.stdout.write(
    `${plan.topics.length} topics and ${plan.acls.length} ACLs of ${values.file} in force ` +
      `for TOPIC_PREFIX=${values['topic-prefix']} (principals: ${plan.principals.join(', ')})\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`kafka:access: ${error.message}\n`);
    process.exit(1);
  },
);
