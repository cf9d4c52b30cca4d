import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInvariants } from '@app/trading-checker';
import { topicForAggregate } from '@app/trading-events';
import {
  ApacheKafkaCluster,
  SecuredClusterLease,
  securedClusterForTest,
  clusterClientFileEnv,
  KAFKA_STARTUP_MS,
  makeClusterTls,
  waitFor,
} from '@outbox-inbox/test-kit';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Admin,
  Kafka,
  logLevel,
  ResourcePatternTypes,
} from 'kafkajs';
import { ServiceProcess } from '../../scripts/stack/service-process';
import { ServiceName, TradingStack } from '../support/trading-stack';

/**
 * Issue 36, item 7: on a secured cluster, what the order-service does when the cluster does not
 * let its relay publish: a topic its ACLs deny, a wrong SASL password, a CA file of another CA.
 * Each time the pay callbacks are still served (readiness up), /health/details names the cause,
 * the process does not exit, no outbox row goes DEAD, no secret reaches a log line, and once
 * the cause is fixed every order is fulfilled and booked once. Every fault is the client's (an
 * ACL of this file's own prefix, its password, its CA file), so the file runs on the run's secured
 * cluster when there is one (CI's three nodes), else on a secured node of its own.
 */
const KAFKA_PRINCIPALS: ServiceName[] = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
];
const ORDERS_PER_FAULT = 4;
/**
 * A liveness bound for a fault and its recovery (a service restarted on two busy cores, the
 * relay's backoff after the fault's rounds), not a performance figure.
 */
const FAULT_MS = 300_000;
const REPLACEMENT_LOG = join('test-logs', 'secured-faults.order-service-restarts.log');

/** The run's secured cluster (CI's three nodes), else a secured node of this file's own. */
let lease: SecuredClusterLease;
let cluster: ApacheKafkaCluster;
let chain: TradingStack;
let dir: string;
let admin: Admin;
let topicPrefix: string;
let stackSpec: ServiceProcess['spec'];
const replaced: ServiceProcess[] = [];
/** The output of the replacement order-services. */
const lines: string[] = [];

function secretFile(name: string, value: string): string {
  const file = join(dir, name);
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return file;
}

/** The order-service's WRITE on its events topic, as deploy/kafka/acls.json grants it. */
function orderWriteAcl() {
  return {
    resourceType: AclResourceTypes.TOPIC,
    resourceName: topicForAggregate('Order', topicPrefix),
    resourcePatternType: ResourcePatternTypes.PREFIXED,
    principal: 'User:order-service',
    host: '*',
    operation: AclOperationTypes.WRITE,
    permissionType: AclPermissionTypes.ALLOW,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'secured-faults-'));
  mkdirSync('test-logs', { recursive: true });
  writeFileSync(REPLACEMENT_LOG, '');
  lease = await securedClusterForTest('secured-faults');
  cluster = lease.cluster;
  const prefix = `t${randomBytes(3).toString('hex')}_`;
  topicPrefix = prefix.replace(/_/g, '.');
  await cluster.applyAccess(topicPrefix);
  admin = new Kafka({
    clientId: 'secured-faults-admin',
    brokers: cluster.brokers,
    logLevel: logLevel.NOTHING,
    ...cluster.clientSecurity(),
  }).admin();
  await admin.connect();
  // The first fault: the stack starts with the order-service's WRITE ACL missing.
  await admin.deleteAcls({ filters: [orderWriteAcl()] });
  const security = cluster.security!;
  const env: Partial<Record<ServiceName, Record<string, string>>> = {};
  for (const name of KAFKA_PRINCIPALS)
    env[name] = { ...clusterClientFileEnv(security, name, dir), LOG_LEVEL: 'verbose' };
  chain = await TradingStack.start({
    prefix,
    env,
    kafkaBrokers: cluster.brokers,
    kafkaTopicsReady: true,
  });
  stackSpec = chain.stack.services['order-service'].spec;
}, KAFKA_STARTUP_MS);

afterAll(async () => {
  await Promise.all(replaced.map((p) => p.stop('SIGKILL')));
  await chain?.stop();
  await admin?.disconnect();
  await lease?.release();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Details {
  status: string;
  components: Record<string, { status: string; reason?: string }>;
}

async function healthDetails(): Promise<Details> {
  const response = await fetch(`${chain.url('order-service')}/health/details`);
  return (await response.json()) as Details;
}

/** Rows of the order outbox by status. */
async function outboxByStatus(): Promise<Record<string, number>> {
  const rows = await chain.query<{ status: string; n: number }>(
    'order_service',
    'SELECT status, COUNT(*) AS n FROM t_outbox GROUP BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Pays new orders while the relay cannot publish; asserts the answer the brief asks for: the
 * callbacks served, readiness up, the cause named, the rows waiting with their attempts.
 */
async function payWhileRefused(cause: RegExp): Promise<void> {
  const orders = await chain.openOrders(ORDERS_PER_FAULT);
  expect(await chain.pay(orders)).toEqual(orders.map(() => 200));
  const url = chain.url('order-service');
  await waitFor(
    async () => cause.test((await healthDetails()).components.outboxRelay?.reason ?? ''),
    {
      description: `/health/details naming ${cause}`,
    },
  );
  expect((await fetch(`${url}/health/ready`)).status).toBe(200);
  const byStatus = await outboxByStatus();
  expect(byStatus.DEAD).toBeUndefined();
  // Waiting (NEW), or claimed for the next look (SENDING): unsent either way.
  expect((byStatus.NEW ?? 0) + (byStatus.SENDING ?? 0)).toBeGreaterThanOrEqual(ORDERS_PER_FAULT);
  const retried = await chain.count(
    'order_service',
    "SELECT COUNT(*) AS n FROM t_outbox WHERE status <> 'SENT' AND retry_count > 0",
  );
  expect(retried).toBe(0);
  expect(chain.stack.services['order-service'].running).toBe(true);
}

/**
 * Replaces the running order-service by one on the same port and database, with the stack's
 * settings and `env` over them.
 */
async function restartOrderService(env: Record<string, string>): Promise<void> {
  const current = chain.stack.services['order-service'];
  await current.stop();
  const next = new ServiceProcess({ ...stackSpec, env: { ...stackSpec.env, ...env } }, (line) => {
    lines.push(line);
    // Beside the stack's log (test-logs/), so a failed run can be read afterwards.
    appendFileSync(REPLACEMENT_LOG, `${new Date().toISOString()} ${line}\n`);
  });
  replaced.push(next);
  chain.stack.services['order-service'] = next;
  next.start();
  await next.waitHealthy();
}
function paidCount(): Promise<number> {
  return chain.count('order_service', "SELECT COUNT(*) AS n FROM t_order WHERE status = 'PAID'");
}

describe('faults of a secured cluster: a clear answer, nothing lost', () => {
  it(
    'a topic the ACL denies: the rows wait and the topic is named; once granted, everything flows once',
    async () => {
      await payWhileRefused(/TOPIC_AUTHORIZATION_FAILED/);
      const { reason } = (await healthDetails()).components.outboxRelay;
      expect(reason).toContain(topicForAggregate('Order', topicPrefix));

      await admin.createAcls({ acl: [orderWriteAcl()] });
      await chain.settled(await paidCount(), FAULT_MS);
      expect((await healthDetails()).components.outboxRelay.status).toBe('up');
    },
    FAULT_MS,
  );

  it(
    'a wrong SASL password: the cause is named, no crash loop, the password in no log line',
    async () => {
      const wrong = `wrong-${randomBytes(12).toString('hex')}`;
      await restartOrderService({
        KAFKA_SASL_PASSWORD_FILE: secretFile('order-service.wrong-password', wrong),
      });
      await payWhileRefused(/SASL_AUTHENTICATION_FAILED/);
      const right = cluster.security!.users['order-service'];
      expect(lines.filter((line) => line.includes(wrong) || line.includes(right))).toEqual([]);

      await restartOrderService({});
      await chain.settled(await paidCount(), FAULT_MS);
    },
    FAULT_MS,
  );

  it(
    'a CA file of another CA: the certificate is refused and named, no crash loop; with the right CA everything flows',
    async () => {
      const other = makeClusterTls(join(dir, 'other-ca'));
      await restartOrderService({ KAFKA_SSL_CA_FILE: other.caFile });
      await payWhileRefused(/TLS_CERTIFICATE_REJECTED/);

      await restartOrderService({});
      await chain.settled(await paidCount(), FAULT_MS);
      // The checker reads the topics and the groups' offsets as the operators' principal.
      const report = await checkInvariants(
        { ...chain.targets(), kafkaSecurity: cluster.clientSecurity('trading-ops') },
        { quiescent: true },
      );
      expect(report.violations).toEqual([]);
    },
    FAULT_MS,
  );
});
