/**
 * Kafka's answers for a client the cluster does not let in: its SASL credentials are refused,
 * the broker's certificate is not trusted, or it is trusted but outside its validity dates.
 * Operational faults, fixed by the deployment's secrets, its CA file or the brokers'
 * certificates, never by a message: the relay holds the rows and the consumer waits, neither
 * fails a message, and the service stays up to answer /health/details with the cause.
 */
export const BROKER_ACCESS_CODES = [
  'SASL_AUTHENTICATION_FAILED',
  'TLS_CERTIFICATE_REJECTED',
  'TLS_CERTIFICATE_EXPIRED',
] as const;

/** One of BROKER_ACCESS_CODES. */
export type BrokerAccessCode = (typeof BROKER_ACCESS_CODES)[number];

/**
 * Node's TLS verification codes for a certificate outside its validity dates: the brokers'
 * certificate is to be renewed (or a clock is wrong), not the client's CA file changed.
 */
const TLS_EXPIRY_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** Node's TLS verification codes: the broker's certificate is not one this client trusts. */
const TLS_CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

interface ErrorLink {
  name?: unknown;
  type?: unknown;
  code?: unknown;
  cause?: unknown;
  originalError?: unknown;
}

/**
 * The access refusal an error carries, on the error or along its chain: kafkajs's
 * KafkaJSSASLAuthenticationError (or the broker's SASL_AUTHENTICATION_FAILED), or a connection
 * error with one of node's certificate codes. kafkajs wraps what failed as `cause` or
 * `originalError` (a retrier's KafkaJSNumberOfRetriesExceeded, a KafkaJSNonRetriableError).
 */
export function brokerAccessRefusalOf(error: unknown): BrokerAccessCode | undefined {
  let e = error as ErrorLink | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if (e.name === 'KafkaJSSASLAuthenticationError' || e.type === 'SASL_AUTHENTICATION_FAILED')
      return 'SASL_AUTHENTICATION_FAILED';
    if (typeof e.code === 'string' && TLS_EXPIRY_CODES.has(e.code))
      return 'TLS_CERTIFICATE_EXPIRED';
    if (typeof e.code === 'string' && TLS_CERTIFICATE_CODES.has(e.code))
      return 'TLS_CERTIFICATE_REJECTED';
    e = (e.originalError ?? e.cause) as ErrorLink | undefined;
  }
  return undefined;
}

/** What an operator does about a refused connection. */
export function brokerAccessRemedy(code: BrokerAccessCode): string {
  switch (code) {
    case 'SASL_AUTHENTICATION_FAILED':
      return 'check KAFKA_SASL_USERNAME and the password (KAFKA_SASL_PASSWORD or its _FILE) against the SCRAM credential on the cluster';
    case 'TLS_CERTIFICATE_REJECTED':
      return "check KAFKA_SSL_CA_FILE: it must hold the CA that signed the brokers' certificates";
    case 'TLS_CERTIFICATE_EXPIRED':
      return "the brokers' certificate is outside its validity dates: renew it (or fix the clock) and restart the brokers; the clients reconnect by themselves";
  }
}
