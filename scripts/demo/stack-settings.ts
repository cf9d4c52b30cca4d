import { kafkaSecurityFromEnv } from '@app/config';
import type { Stack } from '../stack/start-stack';
import { DemoSettings } from './demo-settings';

/** The demo's view of a stack started by scripts/stack, with the ops console. */
export function settingsOf(stack: Stack): DemoSettings {
  const s = stack.services;
  if (!stack.opsConsole) throw new Error('the demo reads the timelines from the ops console');
  return {
    urls: {
      order: s['order-service'].url,
      fulfillment: s['fulfillment-service'].url,
      accounting: s['accounting-service'].url,
      coupon: s['coupon-provider'].url,
      opsConsole: stack.opsConsole.url,
    },
    payCallbackSecret: stack.payCallbackSecret,
    mysqlUrl: stack.mysqlUrl,
    kafkaBrokers: stack.kafkaBrokers,
    // The stack's services read the same variables from the environment they inherit.
    kafkaSecurity: kafkaSecurityFromEnv(),
    databasePrefix: stack.databasePrefix,
    topicPrefix: stack.topicPrefix,
    opsToken: stack.opsApiToken,
  };
}
