import type { KafkaJS } from '@confluentinc/kafka-javascript';
import type { KafkaConnection } from '@outbox-inbox/messaging';
import type { ConnectionOptions } from 'node:tls';

/** librdkafka's properties, as @confluentinc/kafka-javascript takes them. */
type LibrdkafkaProperties = Record<string, string | number | boolean>;

/** The SASL mechanisms both clients take in the same shape (a user name and a password). */
const SHARED_SASL = ['plain', 'scram-sha-256', 'scram-sha-512'];

/**
 * The same settings as the kafkajs path (brokers, clientId, ssl, sasl, logLevel) for
 * @confluentinc/kafka-javascript: brokers, clientId and sasl go into its kafkajs-shaped block
 * as they are, `ssl` as a boolean there, and kafkajs's tls.connect options (ca, cert, key,
 * passphrase, rejectUnauthorized), which that block does not take, become librdkafka's PEM
 * properties. Refused, with a message: a kafkajs `client` (librdkafka cannot use it), and the
 * SASL mechanisms whose settings differ between the clients (kafkajs's `aws`; `oauthbearer`,
 * whose token provider answers a different shape).
 */
export function confluentClientConfig(
  connection: KafkaConnection,
): KafkaJS.CommonConstructorConfig {
  if (connection.client) {
    throw new Error(
      'the confluent publisher needs kafka.brokers and kafka.clientId: a kafkajs `client` cannot be used by librdkafka',
    );
  }
  const sasl = connection.sasl;
  if (sasl && !SHARED_SASL.includes(sasl.mechanism)) {
    throw new Error(
      `the confluent publisher takes SASL ${SHARED_SASL.join(', ')}, not ${sasl.mechanism}`,
    );
  }
  const tls = typeof connection.ssl === 'object' ? connection.ssl : undefined;
  return {
    kafkaJS: {
      brokers: connection.brokers ?? [],
      clientId: connection.clientId,
      ...(connection.ssl !== undefined && { ssl: connection.ssl !== false }),
      ...(sasl && { sasl: sasl as KafkaJS.SASLOptions }),
      // The two clients number their log levels alike; WARN by default, as on the kafkajs path.
      logLevel: (connection.logLevel ?? 2) as number as KafkaJS.logLevel,
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
