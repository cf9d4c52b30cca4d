// MariaDB and Apache Kafka in Docker, for `npm test` on a machine with a Docker engine. The
// images are the releases CI tests and docker-compose.yml runs (test/deploy/pinned-images.spec.ts).
const { createServer } = require('node:net');

/** The images testcontainers runs. */
const IMAGES = { database: 'mariadb:10.11', kafka: 'apache/kafka:4.4.0' };

async function startMariaDb() {
  const { GenericContainer, Wait } = require('testcontainers');
  const container = await new GenericContainer(IMAGES.database)
    .withEnvironment({ MARIADB_ROOT_PASSWORD: 'test' })
    .withExposedPorts(3306)
    // The image's entrypoint starts the server twice (set-up, then for real).
    .withWaitStrategy(Wait.forLogMessage(/ready for connections/, 2))
    .start();
  const url = `mysql://root:test@${container.getHost()}:${container.getMappedPort(3306)}`;
  return { container, url };
}

/**
 * One combined broker+controller. Its client listener is advertised at a host port chosen
 * here, because a Kafka client connects to what the broker advertises, not to the address it
 * bootstrapped from. (@testcontainers/kafka's KafkaContainer runs Confluent's images only.)
 */
async function startApacheKafka() {
  const { GenericContainer, Wait } = require('testcontainers');
  const port = await freePort();
  const container = await new GenericContainer(IMAGES.kafka)
    .withExposedPorts({ container: 9092, host: port })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,CONTROLLER://0.0.0.0:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${port}`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  return { container, brokers: `127.0.0.1:${port}` };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { IMAGES, startMariaDb, startApacheKafka };
