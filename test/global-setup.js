// Once per `npm test` (the integration project), by the KAFKA switch (packages/test-kit/src/kafka):
// - KAFKA_BROKERS set: that cluster, nothing is started;
// - KAFKA=apache: one Apache Kafka cluster of KAFKA_NODES (1 or 3) nodes on free loopback ports
//   for the whole run, exported to every worker as KAFKA_BROKERS, with KAFKA_CLUSTER_STATE
//   naming its state file so tests may stop and start its nodes; stopped in the teardown;
//   secured (SASL_SSL, ACLs in force) with KAFKA_SECURE=true: the state file then holds the CA
//   and each principal's password, and the test kit connects tests as the admin (testKafkaConfig)
//   and each service as its own principal (scripts/stack);
// - KAFKA unset and a Docker engine answering: Apache Kafka (and MySQL, when MYSQL_URL is
//   unset) with testcontainers, at the pins test/deploy/pinned-images.spec.ts checks;
// - otherwise each test file spawns its own tools/kafka-mock.
const { existsSync, mkdtempSync } = require('node:fs');
const { connect } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

function dockerReachable() {
  const host = process.env.DOCKER_HOST;
  if (host && !host.startsWith('unix://')) return Promise.resolve(true);
  const path = host ? host.slice('unix://'.length) : '/var/run/docker.sock';
  if (!existsSync(path)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startApacheKafka() {
  const { ApacheKafkaCluster } = require('../packages/test-kit/src/apache-kafka');
  const nodes = Number(process.env.KAFKA_NODES || 1);
  const secure = process.env.KAFKA_SECURE === 'true';
  process.stderr.write(
    `\nstarting ${secure ? 'a secured' : 'an'} Apache Kafka cluster of ${nodes} node(s) for this run…\n`,
  );
  const cluster = await ApacheKafkaCluster.start({
    nodes,
    dir: mkdtempSync(join(tmpdir(), 'jest-apache-kafka-')),
    secure,
  });
  // Should jest end without its teardown (Ctrl-C), the detached JVMs must not outlive it.
  const pids = cluster.state.nodes.map((n) => n.pid);
  process.once('exit', () => {
    if (!existsSync(cluster.stateFile)) return; // the teardown stopped it
    for (const node of cluster.state.nodes) {
      try {
        if (node.pid) process.kill(node.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  process.env.KAFKA_BROKERS = cluster.brokers.join(',');
  process.env.KAFKA_CLUSTER_STATE = cluster.stateFile;
  process.stderr.write(`Apache Kafka: ${process.env.KAFKA_BROKERS} (pids ${pids.join(', ')})\n`);
  globalThis.__APACHE_KAFKA__ = cluster;
}

module.exports = async function globalSetup(globalConfig) {
  if (!process.env.KAFKA_BROKERS && process.env.KAFKA === 'apache') await startApacheKafka();
  // A broker-fault test pauses and kills the nodes of the cluster it runs on. It may take the
  // run's shared cluster only when test files run one at a time (one worker, as on a 2-core
  // machine); with more workers, other files would feel its faults, so it starts its own.
  if (process.env.KAFKA_CLUSTER_STATE && globalConfig?.maxWorkers === 1)
    process.env.KAFKA_CLUSTER_FAULTS = 'shared';
  if (process.env.MYSQL_URL && process.env.KAFKA_BROKERS) return;
  if (process.env.TESTCONTAINERS === 'off' || !(await dockerReachable())) return;
  const { startApacheKafka: startKafkaContainer, startMariaDb } = require('./testcontainers');
  const containers = [];
  if (!process.env.MYSQL_URL) {
    const mariadb = await startMariaDb();
    containers.push(mariadb.container);
    process.env.MYSQL_URL = mariadb.url;
  }
  if (!process.env.KAFKA_BROKERS && !process.env.KAFKA) {
    const kafka = await startKafkaContainer();
    containers.push(kafka.container);
    process.env.KAFKA_BROKERS = kafka.brokers;
  }
  globalThis.__TESTCONTAINERS__ = containers;
};
