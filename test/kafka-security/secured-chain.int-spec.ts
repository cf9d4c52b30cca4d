import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInvariants } from '@app/trading-checker';
import {
  ApacheKafkaCluster,
  SecuredClusterLease,
  securedClusterForTest,
  clusterClientFileEnv,
  KAFKA_STARTUP_MS,
} from '@outbox-inbox/test-kit';
import { ServiceName, TradingStack } from '../support/trading-stack';

/**
 * Issue 36: the whole chain on a secured cluster (SASL_SSL, SCRAM-SHA-512, nothing allowed
 * without an ACL), each service its own principal with deploy/kafka/acls.json's rights for this
 * file's TOPIC_PREFIX, its password read from a file, every process at the most verbose log
 * level. Paid orders are fulfilled and booked once, and no line any process wrote holds a
 * secret it was given. On the run's secured cluster when there is one (CI's three nodes), else
 * on a secured node of this file's own.
 */
const ORDERS = 12;
const KAFKA_PRINCIPALS: ServiceName[] = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
];

/** The run's secured cluster (CI's three nodes), else a secured node of this file's own. */
let lease: SecuredClusterLease;
let cluster: ApacheKafkaCluster;
let chain: TradingStack;
let secretsDir: string;

beforeAll(async () => {
  secretsDir = mkdtempSync(join(tmpdir(), 'secured-chain-secrets-'));
  lease = await securedClusterForTest('secured-chain');
  cluster = lease.cluster;
  const prefix = `t${randomBytes(3).toString('hex')}_`;
  // The operator step: topics and ACLs before any service starts; the services create none.
  await cluster.applyAccess(prefix.replace(/_/g, '.'));
  const security = cluster.security!;
  const env: Partial<Record<ServiceName, Record<string, string>>> = {
    'coupon-provider': { LOG_LEVEL: 'verbose' },
  };
  for (const name of KAFKA_PRINCIPALS)
    env[name] = { ...clusterClientFileEnv(security, name, secretsDir), LOG_LEVEL: 'verbose' };
  chain = await TradingStack.start({
    prefix,
    env,
    kafkaBrokers: cluster.brokers,
    kafkaTopicsReady: true,
  });
}, KAFKA_STARTUP_MS);

afterAll(async () => {
  await chain?.stop();
  await lease?.release();
  if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
});

describe('the trading chain on a secured cluster, one principal per service', () => {
  it('pays, fulfils and books every order once', async () => {
    const orders = await chain.openOrders(ORDERS);
    expect(await chain.pay(orders)).toEqual(orders.map(() => 200));
    await chain.settled(ORDERS);

    const paid = await chain.count(
      'order_service',
      "SELECT COUNT(*) AS n FROM t_order WHERE status = 'PAID'",
    );
    expect(paid).toBe(ORDERS);
    // The checker reads the topics and the groups' offsets as the operators' principal.
    const report = await checkInvariants(
      { ...chain.targets(), kafkaSecurity: cluster.clientSecurity('trading-ops') },
      { quiescent: true },
    );
    expect(report.violations).toEqual([]);
  });

  it('writes no secret it was given into any log line', () => {
    const security = cluster.security!;
    const secrets: Record<string, string> = {
      'the pay callback secret': chain.stack.payCallbackSecret,
      'the ops token': chain.stack.opsApiToken,
      'the admin password': security.users.admin,
    };
    for (const name of KAFKA_PRINCIPALS) secrets[`${name}'s SCRAM password`] = security.users[name];
    // The most verbose level did write: the search has lines to search.
    expect(chain.logs.length).toBeGreaterThan(100);
    const leaks = Object.entries(secrets).flatMap(([what, value]) =>
      chain.logs.filter((line) => line.includes(value)).map((line) => `${what}: ${line}`),
    );
    expect(leaks).toEqual([]);
  });
});
