/**
 * `npm run demo:driver`: the demo against services that already run (docker compose, or
 * `npm run stack` in another terminal). URLs and the callback secret come from the environment.
 */
import { demoSucceeded, formatSummary, runDemo } from './demo/driver';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;

runDemo({
  urls: {
    order: env('ORDER_SERVICE_URL', 'http://127.0.0.1:3000'),
    fulfillment: env('FULFILLMENT_SERVICE_URL', 'http://127.0.0.1:3001'),
    accounting: env('ACCOUNTING_SERVICE_URL', 'http://127.0.0.1:3002'),
    coupon: env('COUPON_PROVIDER_URL', 'http://127.0.0.1:3003'),
  },
  payCallbackSecret: env('PAY_CALLBACK_SECRET', 'local-demo-secret-0123456789'),
  // The operator token of the running services (npm run stack prints it).
  opsApiToken: env('OPS_API_TOKEN', ''),
  orders: Number(env('DEMO_ORDERS', '50')),
  progress: (line) => process.stdout.write(`${line}\n`),
})
  .then((summary) => {
    process.stdout.write(`${formatSummary(summary)}\n`);
    process.exit(demoSucceeded(summary) ? 0 : 1);
  })
  .catch((error: Error) => {
    process.stderr.write(`demo: ${error.message}\n`);
    process.exit(1);
  });
