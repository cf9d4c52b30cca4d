import { ClusterSecurity } from './cluster-security';
import { nodeSecurityProperties } from './node-security-properties';

/** The ports of one node, all on 127.0.0.1. */
export interface NodePorts {
  /** Clients' listener (PLAINTEXT, or CLIENT on SASL_SSL when secured): what kafkajs bootstraps to. */
  client: number;
  /** The port the client listener is advertised on: `client`, or a proxy in front of it. */
  advertised: number;
  /** Replication between brokers (INTERNAL), apart so a proxy on `client` never cuts it. */
  internal: number;
  /** The KRaft quorum (CONTROLLER): never a client's bootstrap address. */
  controller: number;
}

/**
 * The server.properties of node `id` (1-based) in a cluster of `ports.length` combined
 * broker+controller nodes on loopback; with `security`, every listener on SASL_SSL and ACLs
 * in force (node-security-properties.ts).
 */
export function nodeProperties(
  id: number,
  ports: NodePorts[],
  dataDir: string,
  security?: ClusterSecurity,
): string {
  const own = ports[id - 1];
  const replicas = Math.min(ports.length, 3);
  // Two of three in sync: one broker may die and acks=all writes still succeed.
  const minInSync = replicas >= 3 ? 2 : 1;
  const client = security ? 'CLIENT' : 'PLAINTEXT';
  const voters = ports.map((p, i) => `${i + 1}@127.0.0.1:${p.controller}`).join(',');
  return `${[
    'process.roles=broker,controller',
    `node.id=${id}`,
    `controller.quorum.voters=${voters}`,
    `listeners=${client}://127.0.0.1:${own.client},INTERNAL://127.0.0.1:${own.internal},CONTROLLER://127.0.0.1:${own.controller}`,
    `advertised.listeners=${client}://127.0.0.1:${own.advertised},INTERNAL://127.0.0.1:${own.internal}`,
    ...(security
      ? nodeSecurityProperties(security)
      : [
          'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT',
        ]),
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=INTERNAL',
    `log.dirs=${dataDir}`,
    // Every topic, the internal ones included, on every node (at most 3): a dead broker loses no data.
    `default.replication.factor=${replicas}`,
    `min.insync.replicas=${minInSync}`,
    `offsets.topic.replication.factor=${replicas}`,
    `transaction.state.log.replication.factor=${replicas}`,
    `transaction.state.log.min.isr=${minInSync}`,
    `share.coordinator.state.topic.replication.factor=${replicas}`,
    `share.coordinator.state.topic.min.isr=${minInSync}`,
    // Topics exist before anyone subscribes or produces, as in production: a missing
    // create is a bug that shows here, not a topic with default settings made on first use.
    'auto.create.topics.enable=false',
    // A new group's first join is answered at once; the default 3 s wait for more members
    // only slows each test's first consumer.
    'group.initial.rebalance.delay.ms=0',
    // 10 rather than 50 offsets partitions: the group coordinator's topic is created and
    // moved between brokers in a fraction of the time, on a cluster that holds a few groups.
    'offsets.topic.num.partitions=10',
    'transaction.state.log.num.partitions=10',
    // Two cores run every node: fewer request and I/O threads than a server's defaults.
    'num.network.threads=2',
    'num.io.threads=2',
    'num.replica.fetchers=1',
    'background.threads=2',
  ].join('\n')}\n`;
}
