import { createConnection } from 'mysql2/promise';
import { topicForAggregate } from '@app/trading-events';
import { checkInvariants, invariantTargets } from '@app/trading-checker';
import { DeadLetterDrill, runDeadLetterDrill } from './dead-letter-drill';
import { DemoSettings, demoUserPrefix } from './demo-settings';
import { DEMO_CONSUMERS, DemoConsumer } from './inbox-api';
import { pollUntil } from './poll';
import { republishCopies } from './republish';
import { orderAtRest, readRunState, RunState, tallyConsumer } from './run-state';
import { driveTraffic, stopCouponFaults, TrafficResult } from './traffic';
import { copiesFor, DemoCheck, judgeRun, RunExpectations } from './verdict';

export interface DemoOptions {
  runId: string;
  orders: number;
  /** Longest wait for each settling phase. Default 180 s. */
  settleTimeoutMs?: number;
  progress?: (line: string) => void;
  /** Runs once the callbacks are in, while the chain is still at work (the npm demo crashes a consumer here). */
  whileSettling?: () => Promise<string | undefined>;
  /**
   * Stage a dead letter and replay it at the end (dead-letter-drill.ts). It opens a currency
   * in the accounting database, so it needs write access there: npm run demo has it, docker
   * compose's read-only checker user has not. Default false.
   */
  deadLetterDrill?: boolean;
}

/** Everything the demo observed, read back from the services and the checker. */
export interface DemoOutcome {
  runId: string;
  traffic: TrafficResult;
  /** What `whileSettling` reported it did. */
  incident?: string;
  /** The copies written back to Kafka, and the dead-letter drill when it ran (its order is one of `state.orders`). */
  expectations: RunExpectations;
  state: RunState;
  droppedReplies: number;
  checks: DemoCheck[];
}

/** The topics each consumer of the chain reads. */
export function consumerTopics(topicPrefix: string): RunExpectations['consumerTopics'] {
  const order = topicForAggregate('Order', topicPrefix);
  const fulfillment = topicForAggregate('Fulfillment', topicPrefix);
  return { 'fulfillment-service': [order], 'accounting-service': [order, fulfillment] };
}

/**
 * The demo: traffic with duplicated, late and reordered callbacks and lost coupon replies;
 * wait until every order of the run is at rest; redeliver a third of the run's events on Kafka
 * as a consumer crash would; wait until the inboxes absorbed them; stage a dead letter and
 * replay it (with `deadLetterDrill`); then judge the run and the deployment with the invariant
 * checker.
 */
export async function runDemo(settings: DemoSettings, options: DemoOptions): Promise<DemoOutcome> {
  const say = options.progress ?? (() => undefined);
  const timeoutMs = options.settleTimeoutMs ?? 180_000;
  const traffic = await driveTraffic(settings, options.runId, options.orders, say);
  const incident = await options.whileSettling?.();
  if (incident) say(incident);

  say('waiting until every order of the run is fulfilled, booked and its events sent…');
  let state = await settle(settings, traffic.orderIds, timeoutMs, say, (s) =>
    s.orders.every(orderAtRest),
  );
  const droppedReplies = (await stopCouponFaults(settings)) - traffic.droppedRepliesBefore;

  const redelivered = new Set(
    state.orders
      .filter((_, i) => i % 3 === 0)
      .flatMap((o) => [o.id, ...(o.fulfillmentId ? [o.fulfillmentId] : [])]),
  );
  const topics = consumerTopics(settings.topicPrefix);
  const before = tallies(state);
  say(`redelivering every event of ${Math.ceil(state.orders.length / 3)} orders on Kafka…`);
  const republished = await republishCopies(
    settings.kafkaBrokers,
    topics['accounting-service'],
    redelivered,
    settings.redeliverySecurity ?? settings.kafkaSecurity,
  );
  const copies = { republished, consumerTopics: topics };
  state = await settle(settings, traffic.orderIds, timeoutMs, say, (s) =>
    DEMO_CONSUMERS.every(
      (c) => tallyConsumer(s, c).duplicatesAbsorbed >= before[c] + copiesFor(copies, c),
    ),
  );

  let drill: DeadLetterDrill | undefined;
  if (options.deadLetterDrill) {
    drill = await runDeadLetterDrill(settings, options.runId, say);
    state = await readRunState(settings, [...traffic.orderIds, drill.orderId]);
  }

  say('running the invariant checker on this deployment…');
  const expectations: RunExpectations = { ...copies, drill };
  const checks = judgeRun(state, expectations, await checkDeployment(settings));
  return { runId: options.runId, traffic, incident, expectations, state, droppedReplies, checks };
}

/** Judges a finished run again, as it stands now (its orders found by the run id). */
export async function judgeExistingRun(
  settings: DemoSettings,
  runId: string,
): Promise<{ checks: DemoCheck[]; state: RunState }> {
  const orderIds = await runOrderIds(settings, runId);
  if (orderIds.length === 0) throw new Error(`no orders of demo run ${runId}`);
  const state = await readRunState(settings, orderIds);
  const expectations = { republished: {}, consumerTopics: consumerTopics(settings.topicPrefix) };
  const checks = judgeRun(state, expectations, await checkDeployment(settings));
  return { checks, state };
}

function checkDeployment(settings: DemoSettings) {
  return checkInvariants(
    invariantTargets({
      mysqlUrl: settings.mysqlUrl,
      kafkaBrokers: settings.kafkaBrokers,
      kafkaSecurity: settings.kafkaSecurity,
      databasePrefix: settings.databasePrefix,
      topicPrefix: settings.topicPrefix,
    }),
    { quiescent: true },
  );
}

async function runOrderIds(settings: DemoSettings, runId: string): Promise<string[]> {
  const connection = await createConnection({
    uri: `${settings.mysqlUrl}/${settings.databasePrefix}order_service`,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    const [rows] = await connection.query(
      'SELECT id FROM t_order WHERE user_id LIKE ? ORDER BY id',
      [`${demoUserPrefix(runId)}%`],
    );
    return (rows as Array<{ id: string }>).map((r) => String(r.id));
  } finally {
    await connection.end();
  }
}

/** Reads the run until `done` holds or time runs out; returns the last reading either way. */
async function settle(
  settings: DemoSettings,
  orderIds: string[],
  timeoutMs: number,
  say: (line: string) => void,
  done: (state: RunState) => boolean,
): Promise<RunState> {
  // Past the deadline the run is judged as it stands: the checks name what is missing.
  const { value } = await pollUntil(() => readRunState(settings, orderIds), done, {
    timeoutMs,
    onWait: (state) =>
      say(`  ${state.orders.filter(orderAtRest).length}/${orderIds.length} orders at rest`),
  });
  return value;
}

function tallies(state: RunState): Record<DemoConsumer, number> {
  const result = {} as Record<DemoConsumer, number>;
  for (const c of DEMO_CONSUMERS) result[c] = tallyConsumer(state, c).duplicatesAbsorbed;
  return result;
}
