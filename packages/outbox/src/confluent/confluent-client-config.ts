import type { KafkaConnection } from '@outbox-inbox/messaging';
import type { ConnectionOptions } from 'node:tls';

/** librdkafka's properties, as @confluentinc/kafka-javascript takes them. */
export type LibrdkafkaProperties = Record<string, string | number | boolean>;

/** The kafkajs-shaped block of @confluentinc/kafka-javascript's client config. */
export interface ConfluentKafkaJsBlock {
  brokers: string[];
  clientId: string;
  ssl?: boolean;
  sasl?: KafkaConnection['sasl'];
  logLevel: number;
}

/**
 * The same settings as the kafkajs path (brokers, clientId, ssl, sasl, logLevel) for
 * @confluentinc/kafka-javascript: brokers, clientId and sasl go into its kafkajs-shaped block
 * as they are (plain, scram-sha-256/512, oauthbearer), `ssl` as a boolean there, and kafkajs's
 * tls.connect options (ca, cert, key, passphrase, rejectUnauthorized), which that block does
 * not take, become librdkafka's PEM properties. A kafkajs `client` cannot be reused by
 * librdkafka, and kafkajs's `aws` SASL mechanism has no librdkafka counterpart: both are refused.
 */
export function confluentClientConfig(
  connection: KafkaConnection,
  clientIdSuffix = '',
): { kafkaJS: ConfluentKafkaJsBlock } & LibrdkafkaProperties {
  if (connection.client) {
    throw new Error(
      'the confluent publisher needs kafka.brokers and kafka.clientId: a kafkajs `client` cannot be used by librdkafka',
    );
  }
  if (connection.sasl?.mechanism === 'aws') {
    throw new Error("the confluent publisher does not support kafkajs's `aws` SASL mechanism");
  }
  const tls = typeof connection.ssl === 'object' ? connection.ssl : undefined;
  return {
    kafkaJS: {
      brokers: connection.brokers ?? [],
      clientId: `${connection.clientId}${clientIdSuffix}`,
      ...(connection.ssl !== undefined && { ssl: connection.ssl !== false }),
      ...(connection.sasl !== undefined && { sasl: connection.sasl }),
      // kafkajs's levels and the confluent client's have the same numbers; WARN as on the kafkajs path.
      logLevel: connection.logLevel ?? 2,
    },
    ...(tls && tlsProperties(tls)),
  };
}

/** kafkajs's tls.connect options as librdkafka's SSL properties (PEM strings). */
function tlsProperties(tls: ConnectionOptions): LibrdkafkaProperties {
  const pem = (value: ConnectionOptions['ca']): string | undefined => {
    if (value === undefined) return undefined;
    const parts = (Array.isArray(value) ? value : [value]) as Array<string | Buffer | object>;
    return parts
      .map((part) => (typeof part === 'string' || Buffer.isBuffer(part) ? String(part) : ''))
      .filter((part) => part.length > 0)
      .join('\n');
  };
  const properties: LibrdkafkaProperties = {};
  const ca = pem(tls.ca);
  const cert = pem(tls.cert);
  const key = pem(tls.key as ConnectionOptions['ca']);
  if (ca) properties['ssl.ca.pem'] = ca;
  if (cert) properties['ssl.certificate.pem'] = cert;
  if (key) properties['ssl.key.pem'] = key;
  if (typeof tls.passphrase === 'string') properties['ssl.key.password'] = tls.passphrase;
  if (tls.rejectUnauthorized === false) {
    properties['enable.ssl.certificate.verification'] = false;
  }
  return properties;
}
