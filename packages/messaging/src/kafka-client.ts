import { Kafka, KafkaConfig, logCreator, logLevel, SASLOptions } from 'kafkajs';
import { installKafkajsIdleCheck } from './kafkajs-idle-check';

/**
 * How a library module reaches Kafka: either the client settings (brokers and clientId, and
 * ssl and sasl for a managed cluster such as Confluent Cloud or MSK), or a kafkajs `client`
 * the application built itself, which is then used as it is.
 */
export interface KafkaConnection {
  brokers?: string[];
  clientId?: string;
  /** kafkajs TLS settings: `true` or tls.connect options. */
  ssl?: KafkaConfig['ssl'];
  /** kafkajs SASL settings (plain, scram-sha-256/512, aws, oauthbearer). */
  sasl?: SASLOptions;
  /** kafkajs log level of a client built from the settings. Default WARN. */
  logLevel?: logLevel;
  /** Where a client built from the settings writes its lines (kafkajs's console JSON by default). */
  logCreator?: logCreator;
  /** A kafkajs client of the application's; the settings above are then not used. */
  client?: Kafka;
}

/** What is wrong with a connection's settings (empty when it can be used). */
export function kafkaConnectionProblems(connection: KafkaConnection | undefined): string[] {
  if (connection?.client) return [];
  const problems: string[] = [];
  if (!connection?.brokers?.length)
    problems.push('kafka.brokers must not be empty (or give kafka.client)');
  if (!connection?.clientId) problems.push('kafka.clientId is required (or give kafka.client)');
  return problems;
}

/**
 * The kafkajs client of a connection: its own `client`, or one built from the settings, with
 * `tuning` (request timeout, retry) and `clientIdSuffix` (to tell a module's clients apart).
 * Also stops kafkajs 2.2's idle 1 ms timer loop per broker connection, process-wide (see
 * kafkajs-idle-check.ts).
 */
export function kafkaClient(
  connection: KafkaConnection,
  tuning: Pick<KafkaConfig, 'requestTimeout' | 'retry'> = {},
  clientIdSuffix = '',
): Kafka {
  installKafkajsIdleCheck();
  if (connection.client) return connection.client;
  return new Kafka({
    clientId: `${connection.clientId}${clientIdSuffix}`,
    brokers: connection.brokers ?? [],
    ...(connection.ssl !== undefined && { ssl: connection.ssl }),
    ...(connection.sasl !== undefined && { sasl: connection.sasl }),
    logLevel: connection.logLevel ?? logLevel.WARN,
    ...(connection.logCreator !== undefined && { logCreator: connection.logCreator }),
    ...tuning,
  });
}
