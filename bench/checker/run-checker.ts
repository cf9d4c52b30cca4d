/**
 * Runs the invariant checker once in its own process (so its peak RSS is its own, started with
 * the V8 flags of `npm run check:invariants`) on the
 * deployment named by MYSQL_URL, KAFKA_BROKERS, DATABASE_PREFIX and TOPIC_PREFIX, and prints
 * one JSON line: seconds, peak RSS in MB, and the report's counts.
 */
import { kafkaSecurityFromEnv } from '@app/config';
import { checkInvariants } from '@app/trading-checker';

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const report = await checkInvariants({
    mysqlUrl: process.env.MYSQL_URL!,
    kafkaBrokers: process.env.KAFKA_BROKERS!.split(','),
    kafkaSecurity: kafkaSecurityFromEnv(),
    databasePrefix: process.env.DATABASE_PREFIX,
    topicPrefix: process.env.TOPIC_PREFIX,
    quiescent: true,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(
    `${JSON.stringify({
      seconds,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      orders: report.observations.orders,
      topicMessages: report.observations.topicMessages,
      violations: report.violations.map(
        (v) => `${v.rule}: ${v.message} ${v.ids.slice(0, 3).join('; ')}`,
      ),
      notCheckable: report.notCheckable,
    })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
