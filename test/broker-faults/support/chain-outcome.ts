import { InvariantReport } from '@app/trading-checker';
import { OPS_PRINCIPAL } from '../../../scripts/stack/stack-kafka-access';
import { runScript } from '../../support/run-script';
import { MYSQL_URL, TradingStack } from '../../support/trading-stack';
import { OrderTraffic } from './order-traffic';

/** How long the chain may take to drain a backlog after a fault: waitFor names what is missing. */
const SETTLE_TIMEOUT_MS = 10 * 60_000;

/** Effects per acknowledged order, as the four databases hold them. */
interface OrderEffects {
  paid: string[];
  fulfillmentsDone: Map<string, number>;
  coupons: Map<string, number>;
  paymentJournals: Map<string, number>;
  couponJournals: Map<string, number>;
}

/**
 * The chain is whole after a fault: every callback was answered 2xx; every acknowledged
 * order is PAID with exactly one DONE fulfillment, one coupon, one PAYMENT and one
 * COUPON_GRANT journal (effects = distinct inputs, the same sets); and
 * `npm run check:invariants -- --quiescent` passes at rest, which compares what the topics
 * delivered with what each consumer applied (acknowledged ⊆ delivered) and finds no dead
 * letter, parked event or DEAD row. Returns the checker's report.
 */
export async function expectChainWhole(
  chain: TradingStack,
  traffic: OrderTraffic,
): Promise<InvariantReport> {
  expect(traffic.failedAnswers()).toEqual({});
  const acknowledged = [...traffic.acknowledged].sort();
  expect(acknowledged).toEqual([...traffic.opened].sort());
  await chain.settled(acknowledged.length, SETTLE_TIMEOUT_MS);

  const effects = await orderEffects(chain, acknowledged);
  const once = new Map(acknowledged.map((id) => [id, 1]));
  expect(effects.paid).toEqual(acknowledged);
  expect(effects.fulfillmentsDone).toEqual(once);
  expect(effects.coupons).toEqual(once);
  expect(effects.paymentJournals).toEqual(once);
  expect(effects.couponJournals).toEqual(once);

  const { code, stdout, stderr } = await runScript(
    'scripts/check-invariants.ts',
    ['--quiescent', '--json'],
    {
      ...process.env,
      ...chain.stack.kafkaLoginEnv(OPS_PRINCIPAL),
      MYSQL_URL,
      KAFKA_BROKERS: chain.stack.kafkaBrokers.join(','),
      DATABASE_PREFIX: chain.prefix,
      TOPIC_PREFIX: chain.stack.topicPrefix,
    },
  );
  const report = JSON.parse(stdout) as InvariantReport;
  expect({ violations: report.violations, stderr: code === 0 ? '' : stderr }).toEqual({
    violations: [],
    stderr: '',
  });
  expect(code).toBe(0);
  expect(report.observations).toMatchObject({
    paidOrders: acknowledged.length,
    deadOutboxRows: [],
    parkedEvents: [],
    deadLetteredEvents: [],
  });
  return report;
}

async function orderEffects(chain: TradingStack, orders: string[]): Promise<OrderEffects> {
  const countBy = async (
    database: Parameters<TradingStack['query']>[0],
    sql: string,
  ): Promise<Map<string, number>> => {
    const rows = await chain.query<{ order_id: string; n: number | string }>(database, sql, [
      orders,
    ]);
    return new Map(
      rows
        .map((r) => [String(r.order_id), Number(r.n)] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
  };
  const paid = await chain.query<{ id: string | number }>(
    'order_service',
    "SELECT id FROM t_order WHERE status = 'PAID' AND id IN (?)",
    [orders],
  );
  const journals = (kind: string) =>
    countBy(
      'accounting_service',
      `SELECT order_id, COUNT(*) AS n FROM t_journal WHERE kind = '${kind}' AND order_id IN (?)
       GROUP BY order_id`,
    );
  return {
    paid: paid.map((r) => String(r.id)).sort(),
    fulfillmentsDone: await countBy(
      'fulfillment_service',
      `SELECT order_id, COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE' AND order_id IN (?)
       GROUP BY order_id`,
    ),
    coupons: await countBy(
      'coupon_provider',
      'SELECT order_id, COUNT(*) AS n FROM t_coupon WHERE order_id IN (?) GROUP BY order_id',
    ),
    paymentJournals: await journals('PAYMENT'),
    couponJournals: await journals('COUPON_GRANT'),
  };
}
