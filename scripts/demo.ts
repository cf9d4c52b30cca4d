/**
 * `npm run demo`: the whole trading chain on this machine without Docker — the four services
 * against the local MySQL/MariaDB and Kafka (the librdkafka mock when KAFKA_BROKERS is unset),
 * the demo driver, its summary, and a clean stop.
 */
import { demoSucceeded, formatSummary, runDemo } from './demo/driver';
import { startStack } from './stack/start-stack';

async function main(): Promise<boolean> {
  process.stdout.write('starting the four services (migrations first)…\n');
  const logs: string[] = [];
  const stack = await startStack({ log: (line) => logs.push(line) });
  try {
    const s = stack.services;
    process.stdout.write(
      `Kafka: ${stack.kafkaBrokers.join(',')}${stack.kafkaMock ? ' (librdkafka mock)' : ''}\n`,
    );
    const summary = await runDemo({
      urls: {
        order: s['order-service'].url,
        fulfillment: s['fulfillment-service'].url,
        accounting: s['accounting-service'].url,
        coupon: s['coupon-provider'].url,
      },
      payCallbackSecret: stack.payCallbackSecret,
      opsApiToken: stack.opsApiToken,
      orders: Number(process.env.DEMO_ORDERS ?? 50),
      progress: (line) => process.stdout.write(`${line}\n`),
    });
    process.stdout.write(`${formatSummary(summary)}\n`);
    const ok = demoSucceeded(summary);
    if (!ok) process.stdout.write(`\nservice logs:\n${logs.slice(-40).join('\n')}\n`);
    return ok;
  } finally {
    process.stdout.write('stopping…\n');
    await stack.stop();
  }
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: Error) => {
    process.stderr.write(`demo: ${error.message}\n`);
    process.exit(1);
  });
