import { testKafkaConfig } from '@outbox-inbox/test-kit';
// @fullstackhouse/nestjs-outbox set up as its README shows: TypeORM (MySQL driver) on MariaDB,
// its migrations, an event class, a listener per event (@OnEvent) that publishes to Kafka, the
// module registered with its driver factory and poller settings. The package has no Kafka
// publisher of its own, so the listener sends with kafkajs, configured as the project's
// KafkaOutboxPublisher (acks all, one request in flight, Java-compatible
// partitioner). Loaded with import() so that a missing package skips the bench.
import { kafkaSecurityFromEnv } from '@app/config';
import { dirname } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';

/** The event the peer stores and delivers: the same message the relay publishes. */
export interface PeerMessageEvent {
  name: string;
  key: string;
  envelope: unknown;
  headers: Record<string, string>;
}

/** The peer's poller settings (see its README, Module Options). */
export interface PeerTuning {
  pollingInterval: number;
  maxEventsPerPoll: number;
  poolSize: number;
}

/** A running peer: its Nest application, its TypeORM DataSource, and what it published. */
export interface PeerOutbox {
  published(): number;
  /** Inserts the events, 100 per transaction, not yet due (attempt_at NULL). */
  seed(events: PeerMessageEvent[]): Promise<void>;
  /** Makes every stored event due now, in one statement. */
  release(): Promise<void>;
  /** Events still in the table (the peer deletes an event once every listener has it). */
  stored(): Promise<number>;
  close(): Promise<void>;
}

export const PEER_EVENT = 'OrderCreated';

type Core = typeof import('@fullstackhouse/nestjs-outbox');
type Driver = typeof import('@fullstackhouse/nestjs-outbox-typeorm-driver');
/** The DataSource of typeorm as the driver resolves it (its own 0.3 line, not the project's). */
type PeerDataSource = ConstructorParameters<Driver['TypeORMDatabaseDriverFactory']>[0];
type PeerTypeorm = { DataSource: new (options: object) => PeerDataSource };

/** The peer's packages, or the reason they cannot be loaded. */
export async function loadPeer(): Promise<
  { core: Core; driver: Driver; typeorm: PeerTypeorm } | { error: string }
> {
  try {
    const core = await import('@fullstackhouse/nestjs-outbox');
    const driver = await import('@fullstackhouse/nestjs-outbox-typeorm-driver');
    const driverDir = dirname(require.resolve('@fullstackhouse/nestjs-outbox-typeorm-driver'));
    const typeorm = (await import(
      require.resolve('typeorm', { paths: [driverDir] })
    )) as PeerTypeorm;
    return { core, driver, typeorm };
  } catch (error) {
    return { error: String((error as Error).message ?? error).split('\n')[0] };
  }
}

/** Starts the peer on `databaseUrl` (migrated here), publishing to `topic` on `brokers`. */
export async function startPeer(
  peer: { core: Core; driver: Driver; typeorm: PeerTypeorm },
  databaseUrl: string,
  brokers: string[],
  topic: string,
  tuning: PeerTuning,
): Promise<PeerOutbox> {
  const { core, driver, typeorm } = peer;
  const dataSource = new typeorm.DataSource({
    type: 'mysql',
    connectorPackage: 'mysql2',
    url: databaseUrl,
    timezone: 'Z',
    poolSize: tuning.poolSize,
    entities: [driver.TypeOrmOutboxTransportEvent],
    migrations: driver.OutboxTransportEventMigrations,
  });
  await dataSource.initialize();
  // The driver's own migrations, applied in order by hand: TypeORM 0.3's migration runner
  // refuses two of them (MigrationOutbox1733250000 and 1734900000 lack a 13-digit timestamp),
  // so `migrationsRun: true` as in the README fails with "migration name is wrong".
  const runner = dataSource.createQueryRunner();
  try {
    for (const Migration of driver.OutboxTransportEventMigrations) await new Migration().up(runner);
  } finally {
    await runner.release();
  }

  const producer = new Kafka(
    testKafkaConfig({
      clientId: 'bench-peer',
      brokers,
      ...kafkaSecurityFromEnv(),
      logLevel: logLevel.NOTHING,
    }),
  ).producer({
    idempotent: false,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ key: 'warm-up', value: '{}' }] });

  let published = 0;
  const app = await NestFactory.createApplicationContext(
    peerModule(core, driver, dataSource, producer, topic, tuning, () => (published += 1)),
    { logger: false },
  );
  const resolver = { resolve: () => eventOptions() };
  const table = 'outbox_transport_event';
  return {
    published: () => published,
    async seed(events) {
      for (let i = 0; i < events.length; i += 100) {
        const writer = new driver.TypeORMDatabaseDriverFactory(dataSource).create(resolver);
        const now = Date.now();
        for (const event of events.slice(i, i + 100)) {
          const stored = writer.createOutboxTransportEvent(
            event.name,
            event,
            now + eventOptions().listeners.retentionPeriod,
            null,
          );
          await writer.persist(stored);
        }
        await writer.flush();
      }
    },
    async release() {
      await dataSource.query(`UPDATE ${table} SET attempt_at = ?`, [Date.now()]);
    },
    async stored() {
      const [row] = (await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`)) as Array<{
        n: string;
      }>;
      return Number(row.n);
    },
    async close() {
      await app.close();
      await producer.disconnect();
      await dataSource.destroy();
    },
  };
}

/** The event's options, as the README's example sets them. */
function eventOptions() {
  return {
    name: PEER_EVENT,
    listeners: { retentionPeriod: 24 * 60 * 60 * 1000, maxExecutionTime: 15_000, maxRetries: 5 },
  };
}

function peerModule(
  core: Core,
  driver: Driver,
  dataSource: PeerDataSource,
  producer: Producer,
  topic: string,
  tuning: PeerTuning,
  onPublished: () => void,
) {
  /** A listener per event, as the peer's docs intend: this one forwards OrderCreated to Kafka. */
  @Injectable()
  class OrderCreatedKafkaListener {
    @core.OnEvent(PEER_EVENT)
    async publish(event: PeerMessageEvent): Promise<void> {
      await producer.send({
        topic,
        acks: -1,
        messages: [
          { key: event.key, value: JSON.stringify(event.envelope), headers: event.headers },
        ],
      });
      onPublished();
    }
  }

  @Module({
    imports: [
      core.OutboxModule.registerAsync({
        useFactory: () => ({
          driverFactory: new driver.TypeORMDatabaseDriverFactory(dataSource),
          events: [eventOptions()],
          pollingInterval: tuning.pollingInterval,
          maxEventsPerPoll: tuning.maxEventsPerPoll,
        }),
        // The README's switch for its per-event log lines (START/END per event), which the
        // project's relay does not write either.
        enableDefaultMiddlewares: false,
      }),
    ],
    providers: [OrderCreatedKafkaListener],
  })
  class PeerBenchModule {}

  return PeerBenchModule;
}
