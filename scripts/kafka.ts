/**
 * A local Apache Kafka cluster (tools/apache-kafka), for running the stack, the demo or the
 * tests against by hand:
 *   npm run kafka:start -- --nodes 1|3    format storage, start the nodes, print the bootstrap list
 *       [--secure [--topic-prefix P]]     SASL_SSL (SCRAM-SHA-512), TLS from the kit's CA, ACLs in
 *                                         force; creates deploy/kafka/acls.json's topics and ACLs
 *                                         for TOPIC_PREFIX P (default $TOPIC_PREFIX or 'trading.')
 *                                         and prints each principal's environment
 *       [--reauth-ms N]                   secured: clients must log in again every N ms
 *                                         (connections.max.reauth.ms), so a rotated SCRAM
 *                                         password reaches them (docs/operations.md)
 *   npm run kafka:stop                    stop every node and remove the cluster's folder
 *   npm run kafka:node -- start|stop|kill|pause|resume N
 *                                         one node: start again with its storage, SIGTERM,
 *                                         SIGKILL, SIGSTOP, SIGCONT
 * The cluster lives in $KAFKA_CLUSTER_DIR (default tools/apache-kafka/cluster), whose
 * cluster.json holds the nodes' pids and ports (and, secured, the CA file and every SCRAM
 * user's password).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApacheKafkaCluster, CLUSTER_ADMIN, clusterClientEnv } from '@outbox-inbox/test-kit';

const DIR = process.env.KAFKA_CLUSTER_DIR ?? join(__dirname, '../tools/apache-kafka/cluster');
const STATE = join(DIR, 'cluster.json');
const NODE_ACTIONS = ['start', 'stop', 'kill', 'pause', 'resume'] as const;
type NodeAction = (typeof NODE_ACTIONS)[number];

async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      nodes: { type: 'string', default: '1' },
      secure: { type: 'boolean', default: false },
      'reauth-ms': { type: 'string' },
      'topic-prefix': { type: 'string', default: process.env.TOPIC_PREFIX ?? 'trading.' },
    },
  });
  const nodes = Number(values.nodes);
  if (existsSync(STATE) && ApacheKafkaCluster.attach(STATE).nodeIds.some(isRunning))
    throw new Error(`a cluster already runs in ${DIR}: npm run kafka:stop first`);
  const secured = values.secure ? ' secured (SASL_SSL, SCRAM-SHA-512, ACLs)' : '';
  process.stdout.write(`starting ${nodes} Apache Kafka node(s)${secured} in ${DIR}…\n`);
  const reauth = values['reauth-ms'];
  if (reauth !== undefined && !(values.secure && /^[1-9]\d*$/.test(reauth)))
    throw new Error('--reauth-ms takes a positive number of milliseconds, with --secure');
  const cluster = await ApacheKafkaCluster.start({
    nodes,
    dir: DIR,
    secure: values.secure,
    ...(reauth !== undefined && { reauthMs: Number(reauth) }),
  });
  const brokers = cluster.brokers.join(',');
  for (const node of cluster.state.nodes)
    process.stdout.write(
      `node ${node.id}: pid ${node.pid}, client 127.0.0.1:${node.ports.client}, ` +
        `controller 127.0.0.1:${node.ports.controller}, log ${node.log}\n`,
    );
  process.stdout.write(`bootstrap: ${brokers}\nexport KAFKA_BROKERS=${brokers}\n`);
  if (values.secure) await printAccess(cluster, values['topic-prefix']);
}

/** Applies deploy/kafka/acls.json for the prefix, then prints each principal's environment. */
async function printAccess(cluster: ApacheKafkaCluster, topicPrefix: string): Promise<void> {
  await cluster.applyAccess(topicPrefix);
  process.stdout.write(
    `topics and ACLs of deploy/kafka/acls.json applied for TOPIC_PREFIX=${topicPrefix}\n`,
  );
  const security = cluster.security!;
  for (const user of Object.keys(security.users)) {
    const role = user === CLUSTER_ADMIN ? 'super user: the operator step and tests' : 'principal';
    process.stdout.write(`\n# ${user} (${role})\n`);
    for (const [name, value] of Object.entries(clusterClientEnv(security, user)))
      process.stdout.write(`${name}=${value}\n`);
  }
}

function isRunning(id: number): boolean {
  return ApacheKafkaCluster.attach(STATE).isRunning(id);
}

async function stop(): Promise<void> {
  if (!existsSync(STATE)) {
    process.stdout.write(`no cluster in ${DIR}\n`);
    return;
  }
  await ApacheKafkaCluster.attach(STATE).stop();
  process.stdout.write(`stopped the cluster in ${DIR}\n`);
}

async function node(args: string[]): Promise<void> {
  const [action, id] = [args[0] as NodeAction, Number(args[1])];
  if (!NODE_ACTIONS.includes(action) || !Number.isInteger(id))
    throw new Error(`usage: npm run kafka:node -- ${NODE_ACTIONS.join('|')} N`);
  const cluster = ApacheKafkaCluster.attach(STATE);
  if (action === 'start') await cluster.startNode(id);
  if (action === 'stop') await cluster.stopNode(id);
  if (action === 'kill') await cluster.killNode(id);
  if (action === 'pause') cluster.pauseNode(id);
  if (action === 'resume') cluster.resumeNode(id);
  process.stdout.write(`node ${id}: ${action} done\n`);
}

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: string[]) => Promise<void>> = { start, stop, node };
const run = commands[command];
if (!run) {
  process.stderr.write(
    'usage: kafka.ts start [--nodes 1|3] [--secure [--topic-prefix P] [--reauth-ms N]] | stop | node <action> N\n',
  );
  process.exit(64);
}
run(rest).then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`kafka: ${error.message}\n`);
    process.exit(1);
  },
);
