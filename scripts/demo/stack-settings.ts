import { kafkaSecurityFromEnv } from '@app/config';
import { CLUSTER_ADMIN } from '@outbox-inbox/test-kit';
import { OPS_PRINCIPAL } from '../stack/stack-kafka-access';
import type { Stack } from '../stack/start-stack';
import { DemoSettings } from './demo-settings';

/** The demo's view of a stack started by scripts/stack, with the ops console. */
export function settingsOf(stack: Stack): DemoSettings {
  const s = stack.services;
  // On a secured cluster of this machine: the checker as the operators' principal, the
  // redelivered copies as the admin; else what the environment says, as the services read it.
  const cluster = stack.kafkaSecured ? stack.kafka.cluster : undefined;
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
    kafkaSecurity: cluster ? cluster.clientSecurity(OPS_PRINCIPAL) : kafkaSecurityFromEnv(),
    ...(cluster && { redeliverySecurity: cluster.clientSecurity(CLUSTER_ADMIN) }),
    databasePrefix: stack.databasePrefix,
    topicPrefix: stack.topicPrefix,
    opsToken: stack.opsApiToken,
  };
}
