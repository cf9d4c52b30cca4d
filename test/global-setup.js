// Once per `npm test`: when neither MYSQL_URL nor KAFKA_BROKERS is given and a Docker engine
// answers, start MySQL 8 and Apache Kafka with testcontainers and export their addresses to
// every test worker. Without Docker, each test file uses the local MariaDB and spawns its own
// tools/kafka-mock (see libs/test-kit/src/infrastructure.ts).
const { existsSync } = require('node:fs');
const { connect } = require('node:net');

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

module.exports = async function globalSetup() {
  if (process.env.MYSQL_URL && process.env.KAFKA_BROKERS) return;
  if (process.env.TESTCONTAINERS === 'off' || !(await dockerReachable())) return;
  const containers = [];
  if (!process.env.MYSQL_URL) {
    const { MySqlContainer } = require('@testcontainers/mysql');
    const mysql = await new MySqlContainer('mysql:8.4').withRootPassword('test').start();
    containers.push(mysql);
    process.env.MYSQL_URL = `mysql://root:test@${mysql.getHost()}:${mysql.getPort()}`;
  }
  if (!process.env.KAFKA_BROKERS) {
    const { KafkaContainer } = require('@testcontainers/kafka');
    const kafka = await new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start();
    containers.push(kafka);
    process.env.KAFKA_BROKERS = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
  }
  globalThis.__TESTCONTAINERS__ = containers;
};
