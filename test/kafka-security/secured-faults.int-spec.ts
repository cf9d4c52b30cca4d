import { randomBytes } from 'node:crypto';
import { checkInvariants } from '@app/trading-checker';
import { topicForAggregate } from '@app/trading-events';
import { KAFKA_STARTUP_MS, makeClusterTls } from '@outbox-inbox/test-kit';
import { FAULT_MS, Grant, SecuredFaultChain } from './secured-fault-chain';

/**
 * Issue 36, item 7: on a secured cluster, what the order-service does when the cluster does not
 * let its relay publish: a topic its ACLs deny, a wrong SASL password, a CA file of another CA.
 * Each time the pay callbacks are still served (readiness up), /health/details names the cause,
 * the process does not exit, no outbox row goes DEAD, no secret reaches a log line, and once
 * the cause is fixed every order is fulfilled and booked once. One secured node.
 * (secured-consumer-faults.int-spec.ts: the same for the consuming services.)
 */
const ORDERS_PER_FAULT = 4;

let f: SecuredFaultChain;
let orderWrite: Grant;

beforeAll(async () => {
  // The first fault: the stack starts with the order-service's WRITE ACL missing.
  f = await SecuredFaultChain.start('secured-faults', async ({ deny, topicPrefix }) => {
    orderWrite = {
      principal: 'order-service',
      resource: 'topic',
      name: topicForAggregate('Order', topicPrefix),
      operation: 'WRITE',
    };
    await deny(orderWrite);
  });
}, KAFKA_STARTUP_MS);

afterAll(async () => {
  await f?.stop();
});

/**
 * Pays new orders while the relay cannot publish; asserts the answer the brief asks for: the
 * callbacks served, readiness up, the cause named, the rows waiting with their attempts.
 */
async function payWhileRefused(cause: RegExp): Promise<void> {
  const { chain } = f;
  const orders = await chain.openOrders(ORDERS_PER_FAULT);
  expect(await chain.pay(orders)).toEqual(orders.map(() => 200));
  await f.waitForReason('order-service', 'outboxRelay', cause);
  expect(await f.health('order-service', 'ready')).toBe(200);
  const byStatus = await f.outboxByStatus('order_service');
  expect(byStatus.DEAD).toBeUndefined();
  // Waiting (NEW), or claimed for the next look (SENDING): unsent either way.
  expect((byStatus.NEW ?? 0) + (byStatus.SENDING ?? 0)).toBeGreaterThanOrEqual(ORDERS_PER_FAULT);
  const retried = await chain.count(
    'order_service',
    "SELECT COUNT(*) AS n FROM t_outbox WHERE status <> 'SENT' AND retry_count > 0",
  );
  expect(retried).toBe(0);
  expect(f.process('order-service').running).toBe(true);
}

describe('faults of a secured cluster: a clear answer, nothing lost', () => {
  it(
    'a topic the ACL denies: the rows wait and the topic is named; once granted, everything flows once',
    async () => {
      await payWhileRefused(/TOPIC_AUTHORIZATION_FAILED/);
      const { reason } = (await f.details('order-service')).components.outboxRelay;
      expect(reason).toContain(topicForAggregate('Order', f.topicPrefix));

      await f.grant(orderWrite);
      await f.chain.settled(await f.paidCount(), FAULT_MS);
      expect((await f.details('order-service')).components.outboxRelay.status).toBe('up');
    },
    FAULT_MS,
  );

  it(
    'a wrong SASL password: the cause is named, no crash loop, the password in no log line',
    async () => {
      const wrong = `wrong-${randomBytes(12).toString('hex')}`;
      await f.restart('order-service', {
        KAFKA_SASL_PASSWORD_FILE: f.secretFile('order-service.wrong-password', wrong),
      });
      await payWhileRefused(/SASL_AUTHENTICATION_FAILED/);
      const right = f.cluster.security!.users['order-service'];
      const leaks = f
        .outputOf('order-service')
        .filter((line) => line.includes(wrong) || line.includes(right));
      expect(leaks).toEqual([]);

      await f.restart('order-service', {});
      await f.chain.settled(await f.paidCount(), FAULT_MS);
    },
    FAULT_MS,
  );

  it(
    'a CA file of another CA: the certificate is refused and named, no crash loop; with the right CA everything flows',
    async () => {
      const other = makeClusterTls(f.path('other-ca'));
      await f.restart('order-service', { KAFKA_SSL_CA_FILE: other.caFile });
      await payWhileRefused(/TLS_CERTIFICATE_REJECTED/);

      await f.restart('order-service', {});
      await f.chain.settled(await f.paidCount(), FAULT_MS);
      // The checker reads the topics and the groups' offsets as the operators' principal.
      const report = await checkInvariants(
        { ...f.chain.targets(), kafkaSecurity: f.cluster.clientSecurity('trading-ops') },
        { quiescent: true },
      );
      expect(report.violations).toEqual([]);
    },
    FAULT_MS,
  );
});
