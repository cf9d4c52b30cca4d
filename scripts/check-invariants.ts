/**
 * npm run check:invariants -- [--quiescent] [--json]
 *
 * Checks a running deployment of the trading chain: reads the four databases and the topics
 * named by its settings (MYSQL_URL, KAFKA_BROKERS, DATABASE_PREFIX, TOPIC_PREFIX, as the
 * services and docker compose use them) and reports every broken promise with its ids.
 * Exit 0 when all hold, 1 on a violation, 2 on a usage or connection error.
 */
import { kafkaSecurityFromEnv } from '@app/config';
import { parseArgs } from 'node:util';
import { checkInvariants, formatInvariantReport, invariantTargets } from '@app/trading-checker';

const USAGE = `usage: npm run check:invariants -- [--quiescent] [--json]
  --quiescent  the deployment is at rest: anything still in flight is a violation
  --json       print the report as JSON
environment: MYSQL_URL (default mysql://root@127.0.0.1:3306), KAFKA_BROKERS (required),
             DATABASE_PREFIX (default ''), TOPIC_PREFIX (default 'trading.'), and the Kafka
             client's KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD(_FILE),
             KAFKA_SSL, KAFKA_SSL_CA_FILE`;

async function main(): Promise<number> {
  let flags: { quiescent?: boolean; json?: boolean; help?: boolean };
  try {
    flags = parseArgs({
      options: {
        quiescent: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [];
  if (brokers.length === 0) {
    process.stderr.write(`KAFKA_BROKERS is not set\n${USAGE}\n`);
    return 2;
  }
  const targets = invariantTargets({
    mysqlUrl: process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
    kafkaBrokers: brokers,
    kafkaSecurity: kafkaSecurityFromEnv(),
    databasePrefix: process.env.DATABASE_PREFIX ?? '',
    topicPrefix: process.env.TOPIC_PREFIX ?? 'trading.',
  });
  const report = await checkInvariants(targets, { quiescent: flags.quiescent ?? false });
  process.stdout.write(
    `${flags.json ? JSON.stringify(report, null, 2) : formatInvariantReport(report)}\n`,
  );
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`check:invariants failed: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
