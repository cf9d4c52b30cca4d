import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { ApacheKafkaCluster } from '@outbox-inbox/test-kit';
import { InvariantReport } from '@app/trading-checker';
import { StackOptions } from '../../../scripts/stack/start-stack';
import { TradingStack } from '../../support/trading-stack';
import { expectChainWhole } from './chain-outcome';
import { OrderTraffic } from './order-traffic';
import { ReadinessProbe } from './readiness-probe';

/** Orders each fault test drives: BROKER_FAULT_ORDERS, 300 by default (CI sets 100). */
export const BROKER_FAULT_ORDERS = Number(process.env.BROKER_FAULT_ORDERS || 300);

/**
 * Each service answers /health only once its consumer has joined its group (issue 27), and
 * here four of them start beside three JVMs on two shared cores: 60 s was seen to fall short.
 */
const SERVICE_START_TIMEOUT_MS = 180_000;

/** Small heaps: three brokers run beside the four services on two shared cores. */
const BROKER_HEAP = { max: '320m', initial: '128m' };

/**
 * A three-node Apache Kafka cluster of the test file's own (replication factor 3,
 * min.insync.replicas=2; the relay produces with acks=-1), the four services on it, and the
 * faults the tests inject into its brokers. It knows which brokers are up (running and not
 * paused), so that readiness can be judged against it.
 */
export class BrokerFaultBed {
  private readonly paused = new Set<number>();

  private constructor(
    readonly cluster: ApacheKafkaCluster,
    readonly chain: TradingStack,
    private readonly ownsCluster: boolean,
  ) {}

  /** `env`: extra environment per service, over the fast test timings of TradingStack. */
  static async start(env: StackOptions['env'] = {}): Promise<BrokerFaultBed> {
    const { cluster, owned } = await threeNodeCluster();
    try {
      const chain = await TradingStack.start({
        kafkaBrokers: cluster.brokers,
        env,
        startTimeoutMs: SERVICE_START_TIMEOUT_MS,
      });
      return new BrokerFaultBed(cluster, chain, owned);
    } catch (error) {
      if (owned) await cluster.stop();
      throw error;
    }
  }

  /** The topic of the order events, which the relay of the order-service fills. */
  get orderTopic(): string {
    return this.chain.targets().topics.order;
  }

  /** Brokers that run and are not paused. */
  brokersUp(): number {
    return this.cluster.nodeIds.filter((id) => this.cluster.isRunning(id) && !this.paused.has(id))
      .length;
  }

  /** Traffic through the whole chain, its coupon provider dropping replies. */
  traffic(): OrderTraffic {
    return new OrderTraffic(this.chain);
  }

  /**
   * The frame of every broker-fault test: the coupon provider drops replies, readiness is
   * probed, and `fault` drives all BROKER_FAULT_ORDERS orders around the fault it injects and
   * heals. Then the chain must be whole (chain-outcome.ts), every order driven, and readiness
   * 200 whenever two brokers were up. Returns the checker's report and the probe.
   */
  async underFault(
    fault: (traffic: OrderTraffic, probe: ReadinessProbe) => Promise<void>,
  ): Promise<{ report: InvariantReport; probe: ReadinessProbe }> {
    const traffic = this.traffic();
    await traffic.dropCouponReplies();
    const probe = this.probeReadiness();
    try {
      try {
        await fault(traffic, probe);
      } finally {
        await probe.stop();
      }
      await traffic.dropCouponReplies(0);
      expect(traffic.opened).toHaveLength(BROKER_FAULT_ORDERS);
      const report = await expectChainWhole(this.chain, traffic);
      expect(probe.notReadyWithTwoBrokersUp()).toEqual([]);
      return { report, probe };
    } catch (error) {
      this.keepServiceLogs();
      throw error;
    }
  }

  /** Keeps the services' output in a file after a failure, and prints its last problems. */
  private keepServiceLogs(): void {
    const file = join(mkdtempSync(join(tmpdir(), 'broker-faults-services-')), 'services.log');
    writeFileSync(file, `${this.chain.logs.join('\n')}\n`);
    const problems = this.chain.logs.filter((l) => /"level":"(warn|error|fatal)"/.test(l));
    process.stderr.write(
      `broker faults: the services' output is in ${file}; its last warnings:\n` +
        `${problems
          .slice(-30)
          .map((l) => l.slice(0, 400))
          .join('\n')}\n`,
    );
  }

  /** Polls /health/ready of the order, fulfillment and accounting services until stopped. */
  probeReadiness(): ReadinessProbe {
    const probe = new ReadinessProbe(() => this.brokersUp());
    for (const name of ['order-service', 'fulfillment-service', 'accounting-service'] as const)
      probe.watch(name, this.chain.url(name));
    return probe;
  }

  async kill(id: number): Promise<void> {
    await this.cluster.killNode(id);
  }

  async terminate(id: number): Promise<void> {
    await this.cluster.stopNode(id);
  }

  /** Starts node `id` again and waits until it is registered. */
  async restart(id: number): Promise<void> {
    await this.cluster.startNode(id);
  }

  /** Starts every node that is down, at once (one alone has no controller quorum), and waits. */
  async restartAll(): Promise<void> {
    for (const id of this.cluster.nodeIds) await this.cluster.startNode(id, { wait: false });
    await this.cluster.waitUntilRegistered(300_000);
  }

  pause(id: number): void {
    this.cluster.pauseNode(id);
    this.paused.add(id);
  }

  resume(id: number): void {
    this.cluster.resumeNode(id);
    this.paused.delete(id);
  }

  /** Every partition of the order and fulfillment topics led and fully in sync. */
  async waitForFullIsr(): Promise<void> {
    const topics = this.chain.targets().topics;
    await this.cluster.waitForFullIsr(topics.order, 300_000);
    await this.cluster.waitForFullIsr(topics.fulfillment, 300_000);
  }

  /** Stops the services; stops the cluster it started, or leaves a shared one whole. */
  async stop(): Promise<void> {
    for (const id of this.paused) this.resume(id);
    try {
      await this.chain.stop();
    } finally {
      if (this.ownsCluster) await this.cluster.stop();
      else for (const id of this.cluster.nodeIds) await this.cluster.startNode(id);
    }
  }
}

/** How long a bed may take to start: a three-node cluster and four services on two cores. */
const BED_START_TIMEOUT_MS = 10 * 60_000;

/**
 * Registers the hooks of a broker-fault test file: starts its bed before the file's tests
 * (`env` as BrokerFaultBed.start takes it) and stops it after them. Answers the started bed.
 */
export function useBrokerFaultBed(env: StackOptions['env'] = {}): () => BrokerFaultBed {
  let bed: BrokerFaultBed | undefined;
  beforeAll(async () => {
    bed = await BrokerFaultBed.start(env);
  }, BED_START_TIMEOUT_MS);
  afterAll(async () => {
    await bed?.stop();
  });
  return () => {
    if (!bed) throw new Error('the broker-fault bed did not start (see the beforeAll hook)');
    return bed;
  };
}

/**
 * The jest run's cluster when it has three nodes and test files run one at a time (the global
 * setup then sets KAFKA_CLUSTER_FAULTS=shared; each test leaves the cluster whole), else one
 * started for the caller (`owned`), so that no other file feels this file's faults.
 */
export async function threeNodeCluster(): Promise<{
  cluster: ApacheKafkaCluster;
  owned: boolean;
}> {
  const stateFile = process.env.KAFKA_CLUSTER_STATE;
  const mayShare = stateFile && process.env.KAFKA_CLUSTER_FAULTS === 'shared';
  const shared = mayShare ? ApacheKafkaCluster.attach(stateFile) : undefined;
  if (shared?.nodeIds.length === 3) return { cluster: shared, owned: false };
  const cluster = await ApacheKafkaCluster.start({
    nodes: 3,
    dir: mkdtempSync(join(tmpdir(), 'broker-faults-')),
    heap: BROKER_HEAP,
  });
  return { cluster, owned: true };
}

/**
 * Holds a fault for the length the issue names (10 s, 30 s, 60 s), counted from `since`: the
 * fault itself, not a wait for a condition.
 */
export async function holdFault(since: number, ms: number): Promise<void> {
  await pause(Math.max(0, since + ms - Date.now()));
}
