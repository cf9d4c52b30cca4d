/**
 * `npm run stack`: migrations, then the four services (and the Kafka the KAFKA switch names:
 * KAFKA_BROKERS, else Apache Kafka with KAFKA=apache, else the mock) until Ctrl-C, then a
 * clean stop. `npm run stack -- --ops-console` (or STACK_OPS_CONSOLE=true) starts the ops
 * console too.
 */
import { startStack } from './stack/start-stack';

async function main(): Promise<void> {
  process.stdout.write('starting the trading stack…\n');
  const stack = await startStack({
    log: (line) => process.stdout.write(`${line}\n`),
    ...(process.argv.includes('--ops-console') && { opsConsole: true }),
  });
  process.stdout.write(`\nKafka: ${stack.kafkaBrokers.join(',')} (${stack.kafka.label})\n`);
  for (const service of Object.values(stack.services)) {
    process.stdout.write(
      `${service.spec.name.padEnd(20)} ${service.url}  (docs: ${service.url}/docs)\n`,
    );
  }
  if (stack.opsConsole) {
    process.stdout.write(`${'ops console'.padEnd(20)} ${stack.opsConsole.url}/ops\n`);
  }
  process.stdout.write(
    process.env.OPS_API_TOKEN
      ? '\noperator token: $OPS_API_TOKEN\n'
      : `\noperator token (random for this run; set OPS_API_TOKEN to choose one):\n  export OPS_API_TOKEN=${stack.opsApiToken}\n`,
  );
  process.stdout.write('\nCtrl-C stops everything.\n');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('stopping…\n');
  await stack.stop();
}

main().catch((error: Error) => {
  process.stderr.write(`stack: ${error.message}\n`);
  process.exit(1);
});
