import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Kafka, KafkaConfig, logLevel } from 'kafkajs';
import {
  aclsInForce,
  applyKafkaAccess,
  kafkaAccessPlan,
  readKafkaAccessFile,
} from '../kafka-access';
import { waitFor } from '../wait-for';
import { ensureApacheKafkaInstalled, javaArgs, runKafkaTool } from './broker-install';
import {
  CLUSTER_ADMIN,
  clusterClientSecurity,
  ClusterSecurity,
  newClusterSecurity,
} from './cluster-security';
import { ClusterState, NodeState, readClusterState, writeClusterState } from './cluster-state';
import { freeLoopbackPort } from '../free-loopback-port';
import { NodePorts, nodeProperties } from './node-properties';
import { alterScramCredential } from './scram-credentials';
import { processAlive, signalProcess, waitForExit } from './process-control';

/** Options for `ApacheKafkaCluster.start`. */
export interface ApacheKafkaClusterOptions {
  /** Combined broker+controller nodes: 1, or 3 for replication factor 3. Default 1. */
  nodes?: number;
  /** Where configs, storage, logs and the state file go; emptied first. */
  dir: string;
  /**
   * The port each node's client listener is advertised on, given the port it listens on: a
   * test puts a TcpProxy there to cut or slow every client's path. Default: the same port.
   */
  advertise?: (nodeId: number, clientPort: number) => Promise<number>;
  /** JVM heap per node. Default 384m max, 128m initial: three nodes fit beside the tests. */
  heap?: { max: string; initial: string };
  /** Give up waiting for the cluster after this long. Default 120 s (JVMs on two busy cores). */
  readyTimeoutMs?: number;
  /**
   * Secured as production: SASL_SSL with SCRAM-SHA-512, TLS from a CA made in `<dir>/tls`,
   * ACLs in force with nothing allowed by default (node-security-properties.ts). The SCRAM
   * users are the admin (the super user) and `users`, by default every principal of
   * deploy/kafka/acls.json; their passwords are in the state file. Default false: PLAINTEXT.
   */
  secure?: boolean;
  /** With `secure`: the SCRAM users besides the admin. Default: the access file's principals. */
  users?: string[];
  /**
   * With `secure`: the brokers' `connections.max.reauth.ms` on the client listener (KIP-368).
   * A client must log in again within this long, or the broker closes its connection at its
   * next request; kafkajs re-authenticates on the same connection, with the password it reads
   * then. What makes a rotated password reach every client. Default: unset, sessions never end.
   */
  reauthMs?: number;
}

/** Where a partition is led and replicated, by node id. */
export interface PartitionPlacement {
  partition: number;
  leader: number;
  replicas: number[];
  isr: number[];
}

const STATE_FILE = 'cluster.json';

/**
 * An Apache Kafka cluster (tools/apache-kafka) of combined broker+controller nodes on
 * loopback, each a JVM of its own, for tests and `npm run kafka:*`. Everything about it is in
 * its state file, so another process (a jest worker, the `kafka:node` command) can `attach`
 * and start, stop, kill, pause or resume a node.
 */
export class ApacheKafkaCluster {
  private constructor(
    /** The state file: `<dir>/cluster.json`. */
    readonly stateFile: string,
    private readonly heap: { max: string; initial: string },
  ) {}

  /** Formats KRaft storage, starts every node and waits until all are registered. */
  static async start(options: ApacheKafkaClusterOptions): Promise<ApacheKafkaCluster> {
    ensureApacheKafkaInstalled();
    const count = options.nodes ?? 1;
    if (![1, 3].includes(count)) throw new Error(`nodes must be 1 or 3, got ${count}`);
    rmSync(options.dir, { recursive: true, force: true });
    mkdirSync(options.dir, { recursive: true });
    const ports: NodePorts[] = [];
    for (let id = 1; id <= count; id++) {
      const client = await freeLoopbackPort();
      const advertised = (await options.advertise?.(id, client)) ?? client;
      ports.push({
        client,
        advertised,
        internal: await freeLoopbackPort(),
        controller: await freeLoopbackPort(),
      });
    }
    // Kafka's cluster ids are 16 random bytes in URL-safe base64, as StorageTool random-uuid prints.
    const clusterId = randomBytes(16).toString('base64url');
    const security = options.secure
      ? {
          ...newClusterSecurity(
            join(options.dir, 'tls'),
            options.users ?? Object.keys(readKafkaAccessFile().principals),
          ),
          ...(options.reauthMs !== undefined && { reauthMs: options.reauthMs }),
        }
      : undefined;
    const nodes: NodeState[] = ports.map((p, i) => {
      const id = i + 1;
      const nodeDir = join(options.dir, `node-${id}`);
      mkdirSync(nodeDir, { recursive: true });
      const config = join(nodeDir, 'server.properties');
      writeFileSync(config, nodeProperties(id, ports, join(nodeDir, 'data'), security));
      return { id, pid: null, ports: p, config, log: join(nodeDir, 'server.log') };
    });
    const state: ClusterState = {
      dir: options.dir,
      clusterId,
      brokers: ports.map((p) => `127.0.0.1:${p.advertised}`),
      nodes,
      ...(security && { security }),
    };
    const cluster = new ApacheKafkaCluster(join(options.dir, STATE_FILE), heap(options));
    writeClusterState(cluster.stateFile, state);
    await Promise.all(nodes.map((n) => cluster.format(n, clusterId, security)));
    try {
      for (const node of nodes) await cluster.startNode(node.id, { wait: false });
      await cluster.waitUntilRegistered(options.readyTimeoutMs ?? 120_000);
      await cluster.warmUpGroupCoordinator();
    } catch (error) {
      await cluster.stop({ keepFiles: true });
      throw error;
    }
    return cluster;
  }

  /** Controls a cluster another process started, through its state file. */
  static attach(stateFile: string): ApacheKafkaCluster {
    if (!existsSync(stateFile)) throw new Error(`no Apache Kafka cluster state at ${stateFile}`);
    return new ApacheKafkaCluster(stateFile, heap({}));
  }

  get state(): ClusterState {
    return readClusterState(this.stateFile);
  }

  /** Bootstrap servers (the client listeners), `127.0.0.1:port` each. */
  get brokers(): string[] {
    return this.state.brokers;
  }

  /** How the cluster is secured (`secure`), with every SCRAM user's password; else undefined. */
  get security(): ClusterSecurity | undefined {
    return this.state.security;
  }

  /**
   * kafkajs's `ssl` and `sasl` to connect as `username` (default the admin, the super user),
   * with its password or the `password` given; `{}` on a PLAINTEXT cluster.
   */
  clientSecurity(username = CLUSTER_ADMIN, password?: string): Pick<KafkaConfig, 'ssl' | 'sasl'> {
    const { security } = this.state;
    return security ? clusterClientSecurity(security, username, password) : {};
  }

  /**
   * Creates the topics of deploy/kafka/acls.json and its ACLs, for the deployment whose names
   * begin with `topicPrefix`, as the admin: the operator step a secured cluster needs before
   * any service starts (on a PLAINTEXT cluster, only the topics are of use).
   */
  async applyAccess(topicPrefix: string): Promise<void> {
    const full = kafkaAccessPlan(topicPrefix);
    const plan = this.security ? full : { ...full, acls: [] };
    await this.withAdmin((admin) => applyKafkaAccess(admin, plan));
    // Each node's authorizer takes the ACLs from the metadata log in its own time.
    const { nodes, brokers } = this.state;
    for (const address of brokers.filter((_, i) => nodes[i].pid !== null))
      await waitFor(() => this.withAdmin((admin) => aclsInForce(admin, plan), [address]), {
        timeoutMs: 60_000,
        intervalMs: 100,
        description: `the ACLs in force on ${address}`,
      });
  }

  /**
   * Gives SCRAM user `user` a new password on the cluster (kafka-configs --alter): the old one
   * is refused from then on, by every new login and every re-authentication; connections
   * already logged in stay until their session ends (`reauthMs`). The state file records the
   * new password, so `clientSecurity(user)` logs in with it.
   */
  async setScramPassword(user: string, password: string): Promise<void> {
    const security = this.requireSecurity();
    await alterScramCredential(this.state.dir, this.runningBrokers(), security, {
      user,
      password,
    });
    this.updateUsers({ ...this.requireSecurity().users, [user]: password });
  }

  /** Deletes SCRAM user `user`'s credential: nothing logs in as it until one is set again. */
  async deleteScramCredential(user: string): Promise<void> {
    const security = this.requireSecurity();
    await alterScramCredential(this.state.dir, this.runningBrokers(), security, {
      user,
      delete: true,
    });
    const { [user]: _deleted, ...users } = this.requireSecurity().users;
    this.updateUsers(users);
  }

  /** Node ids, 1-based. */
  get nodeIds(): number[] {
    return this.state.nodes.map((n) => n.id);
  }

  /** True while node `id`'s JVM runs (a paused node runs). */
  isRunning(id: number): boolean {
    const { pid } = this.node(id);
    return pid !== null && processAlive(pid);
  }

  /**
   * Starts node `id` again, with its storage. By default waits until it is registered (and
   * every other running node too).
   */
  async startNode(id: number, options: { wait?: boolean } = {}): Promise<void> {
    if (this.isRunning(id)) return;
    const node = this.node(id);
    const out = openSync(node.log, 'a');
    try {
      const child = spawn('java', [...javaArgs('kafka.Kafka', this.heap), node.config], {
        // Its own process group, so a Ctrl-C of a test run reaches the test, which stops the
        // cluster, and not each JVM half way.
        detached: true,
        stdio: ['ignore', out, out],
      });
      child.unref();
      this.update(id, { pid: child.pid ?? null });
    } finally {
      closeSync(out);
    }
    if (options.wait ?? true) await this.waitUntilRegistered();
  }

  /**
   * Restarts node `id` with `keystoreFile` (a PEM key and certificate, makeExpiredNodeKeystore's
   * say) on its client listener alone, or with the cluster's own keystore again when it is
   * undefined. The nodes keep their good certificate between themselves, so the node registers
   * and serves; only clients meet the other one. Waits for registration with the cluster's own
   * keystore only: a client of the kit would refuse the other.
   */
  async serveClientKeystore(id: number, keystoreFile?: string): Promise<void> {
    const { config } = this.node(id);
    const override = 'listener.name.client.ssl.keystore.location=';
    const kept = readFileSync(config, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith(override) && line !== '');
    if (keystoreFile) kept.push(`${override}${keystoreFile}`);
    await this.stopNode(id);
    writeFileSync(config, `${kept.join('\n')}\n`);
    await this.startNode(id, { wait: keystoreFile === undefined });
  }

  /** SIGTERM: a controlled shutdown (leadership moves away first); waits for the exit. */
  async stopNode(id: number): Promise<void> {
    await this.end(id, 'SIGTERM', 30_000);
  }

  /** SIGKILL: the JVM dies at once, as on a power cut; waits for the exit. */
  async killNode(id: number): Promise<void> {
    await this.end(id, 'SIGKILL', 0);
  }

  /** SIGSTOP: a hung broker, its sockets open and silent. */
  pauseNode(id: number): void {
    const { pid } = this.node(id);
    if (pid !== null) signalProcess(pid, 'SIGSTOP');
  }

  /** SIGCONT: the paused node carries on. */
  resumeNode(id: number): void {
    const { pid } = this.node(id);
    if (pid !== null) signalProcess(pid, 'SIGCONT');
  }

  /** Each partition's leader, replicas and in-sync replicas, as the cluster reports them. */
  async placement(topic: string): Promise<PartitionPlacement[]> {
    return this.withAdmin(async (admin) => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0].partitions
        .map((p) => ({
          partition: p.partitionId,
          leader: p.leader,
          replicas: p.replicas,
          isr: p.isr,
        }))
        .sort((a, b) => a.partition - b.partition);
    });
  }

  /** The node that leads most of `topic`'s partitions (the lowest id on a tie). */
  async busiestLeader(topic: string): Promise<number> {
    const counts = new Map<number, number>();
    for (const p of await this.placement(topic))
      counts.set(p.leader, (counts.get(p.leader) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  }

  /** Waits until every partition of `topic` has a leader and all its replicas in sync. */
  async waitForFullIsr(topic: string, timeoutMs = 120_000): Promise<void> {
    await waitFor(
      async () =>
        (await this.placement(topic)).every(
          (p) => p.leader >= 0 && p.isr.length === p.replicas.length,
        ),
      { timeoutMs, intervalMs: 250, description: `every replica of ${topic} in sync` },
    );
  }

  /**
   * Waits until every running node answers on its own client listener and the cluster lists
   * it as a broker. A broker opens its listener only once the active controller has unfenced
   * it, and asking each node itself is what tells a restarted node from the stale registration
   * of its dead self, which the controller keeps until the broker session times out.
   */
  async waitUntilRegistered(timeoutMs = 120_000): Promise<void> {
    const { nodes, brokers } = this.state;
    const running = nodes.filter((n) => n.pid !== null);
    const expected = running.map((n) => n.id);
    const registeredEverywhere = async () => {
      for (const node of running) {
        if (!processAlive(node.pid!)) throw new NodeExitedError(node.id, node.log);
        const address = brokers[nodes.indexOf(node)];
        const listed = await this.withAdmin((admin) => admin.describeCluster(), [address]);
        const ids = new Set(listed.brokers.map((b) => b.nodeId));
        if (!expected.every((id) => ids.has(id))) return false;
      }
      return true;
    };
    await waitFor(registeredEverywhere, {
      timeoutMs,
      intervalMs: 250,
      description: `nodes ${expected.join(', ')} registered as brokers`,
    }).catch((error: Error) => {
      const exited = running.find((n) => !processAlive(n.pid!));
      throw exited ? new NodeExitedError(exited.id, exited.log) : error;
    });
  }

  /**
   * Stops every node (SIGKILL: its storage is thrown away) and removes the folder, unless
   * `keepFiles` or KAFKA_KEEP_FILES=1 (to read the nodes' logs and storage after a run).
   */
  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    const { nodes, dir } = this.state;
    for (const node of nodes) if (node.pid !== null) signalProcess(node.pid, 'SIGKILL');
    await Promise.all(nodes.map((n) => (n.pid !== null ? waitForExit(n.pid, 0) : undefined)));
    const keep = options.keepFiles ?? process.env.KAFKA_KEEP_FILES === '1';
    if (keep) process.stderr.write(`apache-kafka: kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }

  /** Runs `use` with a connected kafkajs admin on this cluster. */
  async withAdmin<T>(
    use: (admin: ReturnType<Kafka['admin']>) => Promise<T>,
    brokers = this.runningBrokers(),
  ): Promise<T> {
    const kafka = new Kafka({
      clientId: 'apache-kafka-cluster',
      brokers,
      ...this.clientSecurity(),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 3_000,
      retry: { retries: 2, initialRetryTime: 100 },
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      return await use(admin);
    } finally {
      await admin.disconnect();
    }
  }

  private runningBrokers(): string[] {
    const { nodes, brokers } = this.state;
    const running = brokers.filter((_, i) => nodes[i].pid !== null);
    return running.length > 0 ? running : brokers;
  }

  /**
   * The first group lookup makes the cluster create __consumer_offsets; done here once, so no
   * test's first consumer waits for it.
   */
  private async warmUpGroupCoordinator(): Promise<void> {
    await waitFor(
      () => this.withAdmin((admin) => admin.describeGroups(['apache-kafka-cluster.warm-up'])),
      { timeoutMs: 60_000, intervalMs: 250, description: 'the group coordinator answers' },
    );
  }

  private async format(
    node: NodeState,
    clusterId: string,
    security?: ClusterSecurity,
  ): Promise<void> {
    // `--cluster-id=` keeps an id that starts with '-' (one base64url id in 64) from being read
    // as an option, which fails the format with "expected one argument".
    const args = ['format', `--cluster-id=${clusterId}`, '-c', node.config];
    // SCRAM credentials live in the cluster's metadata: written at format time, so the nodes
    // can authenticate to each other before any admin could create them.
    for (const [name, password] of Object.entries(security?.users ?? {}))
      args.push('--add-scram', `SCRAM-SHA-512=[name=${name},password=${password}]`);
    await runKafkaTool(
      'kafka.tools.StorageTool',
      args,
      `formatting node ${node.id}'s storage failed`,
    );
  }

  private async end(id: number, signal: NodeJS.Signals, killAfterMs: number): Promise<void> {
    const { pid } = this.node(id);
    if (pid === null) return;
    signalProcess(pid, 'SIGCONT'); // a paused node cannot act on SIGTERM
    signalProcess(pid, signal);
    await waitForExit(pid, killAfterMs);
    this.update(id, { pid: null });
  }

  private requireSecurity(): ClusterSecurity {
    const { security } = this.state;
    if (!security) throw new Error('the cluster is not secured: it has no SCRAM users');
    return security;
  }

  private updateUsers(users: Record<string, string>): void {
    const state = this.state;
    state.security = { ...this.requireSecurity(), users };
    writeClusterState(this.stateFile, state);
  }

  private node(id: number): NodeState {
    const node = this.state.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`no node ${id}: nodes are ${this.nodeIds.join(', ')}`);
    return node;
  }

  private update(id: number, change: Partial<NodeState>): void {
    const state = this.state;
    state.nodes = state.nodes.map((n) => (n.id === id ? { ...n, ...change } : n));
    writeClusterState(this.stateFile, state);
  }
}

/** A node's JVM exited while the cluster waited for it: the end of its log says why. */
class NodeExitedError extends Error {
  constructor(id: number, log: string) {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-30).join('\n') : '';
    super(`Apache Kafka node ${id} exited; the end of ${log}:\n${tail}`);
  }
}

function heap(options: { heap?: { max: string; initial: string } }) {
  return options.heap ?? { max: '384m', initial: '128m' };
}
