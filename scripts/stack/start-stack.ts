import { randomBytes } from 'node:crypto';
import { readSecretFiles } from '@app/config';
import { KafkaBroker, KafkaMock, startKafka } from '@outbox-inbox/test-kit';
import {
  createServiceDatabaseUsers,
  ServiceDatabaseName,
  ServiceDatabaseUsers,
} from '@app/trading-test-kit';
import { migrate, portVariable, ServiceProcess, ServiceSpec } from './service-process';
import { prepareStackKafka, SERVICE_PRINCIPALS } from './stack-kafka-access';

export { STACK_CONSUMERS, stackTopics } from './stack-topics';

/** The four services; the ops console is started beside them only when asked. */
type ServiceName = Exclude<ServiceSpec['name'], 'ops-console'>;

/** How to start the four services together. */
export interface StackOptions {
  /** MySQL/MariaDB server URL without a database. Default: $MYSQL_URL or root@127.0.0.1:3306. */
  mysqlUrl?: string;
  /**
   * Kafka bootstrap servers. Default: what the KAFKA switch names (kafkaChoice):
   * $KAFKA_BROKERS, else an Apache Kafka cluster started for the stack (KAFKA=apache), else a
   * spawned tools/kafka-mock.
   */
  kafkaBrokers?: string[];
  /**
   * The stack's Kafka will be taken down or slowed (`Stack.kafka.faults`): it gets one of its
   * own even when KAFKA_BROKERS names a shared cluster of this machine.
   */
  kafkaFaults?: boolean;
  /** A mock whatever KAFKA says: the stack's test injects protocol errors only it can. */
  kafkaMockOnly?: boolean;
  /**
   * The topics (and, on a secured cluster, the ACLs) exist already: the caller made them in the
   * operator step (`applyAccess`), and the stack applies nothing. Otherwise the stack does that
   * step itself, as the admin of a secured cluster (deploy/kafka/acls.json for its prefix).
   */
  kafkaTopicsReady?: boolean;
  /** How long each service may take to answer /health after it starts. Default 60 s. */
  startTimeoutMs?: number;
  /**
   * Prefix of the four database names and of their users, so that tests get their own. Default
   * $DATABASE_PREFIX or ''.
   */
  databasePrefix?: string;
  /** `host:port` a service reaches the database server through (a TcpProxy), per service. */
  databaseVia?: Partial<Record<ServiceName, string>>;
  /** Prefix of the topics, consumer groups and dead-letter topics. Default $TOPIC_PREFIX or 'trading.'. */
  topicPrefix?: string;
  ports?: Partial<Record<ServiceSpec['name'], number>>;
  /**
   * Start the ops console too (the demo and the console's own tests ask). Default: true when
   * $STACK_OPS_CONSOLE is `true`.
   */
  opsConsole?: boolean;
  payCallbackSecret?: string;
  /**
   * The operator token every service expects (OPS_API_TOKEN). Default: $OPS_API_TOKEN, else a
   * random one for this stack, which `Stack.opsApiToken` gives to tests and the demo.
   */
  opsApiToken?: string;
  /** Extra environment per app (retry timings in tests, for example). */
  env?: Partial<Record<ServiceSpec['name'], Record<string, string>>>;
  log?: (line: string) => void;
}

/** The running stack. */
export interface Stack {
  services: Record<ServiceName, ServiceProcess>;
  /** The ops console, when it was asked for (`opsConsole`). */
  opsConsole?: ServiceProcess;
  mysqlUrl: string;
  databasePrefix: string;
  /** The schema owner and each service's own user (deploy/mysql/service-users.sql). */
  databaseUsers: ServiceDatabaseUsers;
  kafkaBrokers: string[];
  /** Present when Kafka is the mock: its request-error pushes (mock-only faults). */
  kafkaMock?: KafkaMock;
  /** The broker: faults and node controls where this stack started it. */
  kafka: KafkaBroker;
  topicPrefix: string;
  /** True on a secured cluster: each service connects as its own principal. */
  kafkaSecured: boolean;
  /**
   * The environment of a process that connects as `principal` on a secured cluster (its
   * password in a file): OPS_PRINCIPAL for the operators' CLI and checker. Empty elsewhere.
   */
  kafkaLoginEnv(principal: string): Record<string, string>;
  payCallbackSecret: string;
  /** The operator token: `Authorization: Bearer <opsApiToken>` on operator routes. */
  opsApiToken: string;
  /** Stops the services and Kafka, and drops the database users (the databases stay). */
  stop(): Promise<void>;
}

export const DEFAULT_PORTS: Record<ServiceSpec['name'], number> = {
  'order-service': 3000,
  'fulfillment-service': 3001,
  'accounting-service': 3002,
  'coupon-provider': 3003,
  'ops-console': 3004,
};

/**
 * Makes the databases and their users (deploy/mysql/service-users.sql, as compose does), runs
 * the migrations as the schema owner and starts coupon-provider, order, fulfillment and
 * accounting services (and the ops console when asked), each service as its own
 * least-privilege user, as real processes from `dist/` (the same commands the Docker images
 * run), and waits until each answers /health.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const mysqlUrl = (
    options.mysqlUrl ??
    process.env.MYSQL_URL ??
    'mysql://root@127.0.0.1:3306'
  ).replace(/\/+$/, '');
  const topicPrefix = options.topicPrefix ?? process.env.TOPIC_PREFIX ?? 'trading.';
  // Either secret may come from its file (PAY_CALLBACK_SECRET_FILE, OPS_API_TOKEN_FILE); the
  // services are then given the value, and the inherited _FILE variable is blanked out.
  const own = readSecretFiles(process.env, ['PAY_CALLBACK_SECRET', 'OPS_API_TOKEN']) as Record<
    string,
    string | undefined
  >;
  const secret =
    options.payCallbackSecret ?? own.PAY_CALLBACK_SECRET ?? 'local-demo-secret-0123456789';
  const opsApiToken =
    options.opsApiToken ?? own.OPS_API_TOKEN ?? randomBytes(24).toString('base64url');
  const dbPrefix = options.databasePrefix ?? process.env.DATABASE_PREFIX ?? '';
  const ports = { ...DEFAULT_PORTS, ...portsFromEnv(), ...options.ports };

  const databaseUsers = await createServiceDatabaseUsers(mysqlUrl, dbPrefix);
  const kafka = await startKafka({
    faults: options.kafkaFaults,
    mockOnly: options.kafkaMockOnly,
    env: options.kafkaBrokers
      ? { ...process.env, KAFKA_BROKERS: options.kafkaBrokers.join(',') }
      : process.env,
  }).catch(async (error: unknown) => {
    await databaseUsers.drop();
    throw error;
  });
  const kafkaBrokers = kafka.brokers;
  const access = await prepareStackKafka(
    kafka,
    topicPrefix,
    options.kafkaTopicsReady ?? false,
  ).catch(async (error: unknown) => {
    await kafka.stop();
    await databaseUsers.drop();
    throw error;
  });
  // On a secured cluster, each service logs in as its own principal (deploy/kafka/acls.json).
  const loginOf = (name: ServiceName) =>
    name in SERVICE_PRINCIPALS
      ? access.loginEnv(SERVICE_PRINCIPALS[name as keyof typeof SERVICE_PRINCIPALS])
      : {};

  const common = {
    KAFKA_BROKERS: kafkaBrokers.join(','),
    TOPIC_PREFIX: topicPrefix,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    OPS_API_TOKEN: opsApiToken,
    OPS_API_TOKEN_FILE: '',
  };
  const databaseOf = (name: ServiceName) => name.replace(/-/g, '_') as ServiceDatabaseName;
  const db = (name: ServiceName) =>
    databaseUsers.serviceUrl(databaseOf(name), options.databaseVia?.[name]);
  const specs: ServiceSpec[] = [
    {
      name: 'coupon-provider',
      port: ports['coupon-provider'],
      env: {
        ...common,
        DATABASE_URL: db('coupon-provider'),
        COUPON_PROVIDER_PORT: String(ports['coupon-provider']),
        // Tests and the demo drop replies and fail grants through PUT /faults.
        COUPON_FAULTS_ENABLED: 'true',
      },
    },
    {
      name: 'order-service',
      port: ports['order-service'],
      env: {
        ...common,
        DATABASE_URL: db('order-service'),
        ORDER_SERVICE_PORT: String(ports['order-service']),
        PAY_CALLBACK_SECRET: secret,
        PAY_CALLBACK_SECRET_FILE: '',
      },
    },
    {
      name: 'fulfillment-service',
      port: ports['fulfillment-service'],
      env: {
        ...common,
        DATABASE_URL: db('fulfillment-service'),
        FULFILLMENT_SERVICE_PORT: String(ports['fulfillment-service']),
        COUPON_PROVIDER_URL: `http://127.0.0.1:${ports['coupon-provider']}`,
      },
    },
    {
      name: 'accounting-service',
      port: ports['accounting-service'],
      env: {
        ...common,
        DATABASE_URL: db('accounting-service'),
        ACCOUNTING_SERVICE_PORT: String(ports['accounting-service']),
      },
    },
  ].map((spec) => ({
    ...spec,
    env: {
      ...spec.env,
      ...loginOf(spec.name as ServiceName),
      ...options.env?.[spec.name as ServiceName],
    },
  })) as ServiceSpec[];
  const consoleSpec: ServiceSpec = {
    name: 'ops-console',
    port: ports['ops-console'],
    env: {
      HOST: common.HOST,
      LOG_LEVEL: common.LOG_LEVEL,
      OPS_API_TOKEN: opsApiToken,
      OPS_CONSOLE_PORT: String(ports['ops-console']),
      ORDER_SERVICE_URL: `http://127.0.0.1:${ports['order-service']}`,
      FULFILLMENT_SERVICE_URL: `http://127.0.0.1:${ports['fulfillment-service']}`,
      ACCOUNTING_SERVICE_URL: `http://127.0.0.1:${ports['accounting-service']}`,
      COUPON_PROVIDER_URL: `http://127.0.0.1:${ports['coupon-provider']}`,
      ...options.env?.['ops-console'],
    },
  };
  const withConsole = options.opsConsole ?? process.env.STACK_OPS_CONSOLE === 'true';

  const services = {} as Record<ServiceName, ServiceProcess>;
  const opsConsole = withConsole ? new ServiceProcess(consoleSpec, log) : undefined;
  const all = () => [...Object.values(services), ...(opsConsole ? [opsConsole] : [])];
  try {
    // The owner's URL goes to the migrate step alone: a service never holds DDL rights.
    for (const spec of specs)
      await migrate(spec, {
        DATABASE_MIGRATE_URL: databaseUsers.migrateUrl(databaseOf(spec.name as ServiceName)),
      });
    for (const spec of specs) {
      services[spec.name as ServiceName] = new ServiceProcess(spec, log);
      services[spec.name as ServiceName].start();
    }
    opsConsole?.start();
    await Promise.all(all().map((s) => s.waitHealthy(options.startTimeoutMs)));
  } catch (error) {
    await Promise.all(all().map((s) => s.stop()));
    await kafka.stop();
    await databaseUsers.drop();
    access.remove();
    throw error;
  }

  return {
    services,
    opsConsole,
    kafkaBrokers,
    kafkaMock: kafka.mock,
    kafka,
    mysqlUrl,
    databasePrefix: dbPrefix,
    databaseUsers,
    topicPrefix,
    kafkaSecured: access.secured,
    kafkaLoginEnv: access.loginEnv,
    payCallbackSecret: secret,
    opsApiToken,
    async stop() {
      await Promise.all(all().map((s) => s.stop()));
      await kafka.stop();
      await databaseUsers.drop();
      access.remove();
    },
  };
}

function portsFromEnv(): Partial<Record<ServiceSpec['name'], number>> {
  const ports: Partial<Record<ServiceSpec['name'], number>> = {};
  for (const name of Object.keys(DEFAULT_PORTS) as Array<ServiceSpec['name']>) {
    const value = process.env[portVariable(name)];
    if (value) ports[name] = Number(value);
  }
  return ports;
}
