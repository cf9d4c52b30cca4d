import { parseArgs } from 'node:util';

/** What `npm run demo -- --help` prints. */
export const DEMO_HELP = `Usage: npm run demo -- [options]

Runs the whole trading chain on this machine without Docker, in a run of its own: the four
services against the local MySQL/MariaDB (and the librdkafka mock unless KAFKA_BROKERS is set),
pays orders with duplicated, late and reordered callbacks, crashes a consumer, redelivers events,
stages a dead letter (an order in a currency the ledger is not open in) and replays it after a
dry run, waits until the run is at rest and judges it with the invariant checker. The last line
is "demo: PASS ..." or "demo: FAIL <check>: <what>", and the exit code matches.

Options:
  --orders N   orders to place and pay, 1 to 10000 (default $DEMO_ORDERS or 50)
  --keep       keep the stack running after the verdict, until Ctrl-C: prints every service's
               URL, the operator token as an "export OPS_API_TOKEN=..." line and sample
               "npm run ops" commands
  -h, --help   print this help and exit (nothing is built or started)

Environment: MYSQL_URL, KAFKA_BROKERS, DATABASE_PREFIX, TOPIC_PREFIX, OPS_API_TOKEN(_FILE),
PAY_CALLBACK_SECRET(_FILE), ORDER_SERVICE_PORT, FULFILLMENT_SERVICE_PORT, ACCOUNTING_SERVICE_PORT,
COUPON_PROVIDER_PORT; a secured Kafka: KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME,
KAFKA_SASL_PASSWORD(_FILE), KAFKA_SSL, KAFKA_SSL_CA_FILE (the services and the demo's own clients).
`;

/** The demo's command line, parsed: help, or a run. */
export type DemoOptions = { help: true } | { help: false; orders: number; keep: boolean };

/** Parses the demo's arguments; throws with a message naming the bad option. */
export function parseDemoOptions(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): DemoOptions {
  const { values } = parseArgs({
    args,
    options: {
      orders: { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  const orders = Number(values.orders ?? env.DEMO_ORDERS ?? 50);
  if (!Number.isInteger(orders) || orders < 1 || orders > 10_000)
    throw new Error(`--orders must be a whole number from 1 to 10000, got ${values.orders}`);
  return { help: false, orders, keep: values.keep ?? false };
}
