import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSSASLAuthenticationError,
} from 'kafkajs';
import { brokerAccessRefusalOf, brokerAccessRemedy } from './broker-access-refusal';

/** kafkajs's error classes take (error, options) at run time; their typings say less. */
type AnyError = new (...args: unknown[]) => Error;
const kafkajs = (type: unknown, ...args: unknown[]) => new (type as AnyError)(...args);

/** A TLS failure as node reports it: an Error with the verification code. */
function tlsError(code: string): Error {
  return Object.assign(new Error(`tls: ${code}`), { code });
}

describe('brokerAccessRefusalOf', () => {
  it('names a refused SASL login, bare or as kafkajs wraps it', () => {
    const refused = kafkajs(
      KafkaJSSASLAuthenticationError,
      'SASL SCRAM SHA512 authentication failed',
    );
    expect(brokerAccessRefusalOf(refused)).toBe('SASL_AUTHENTICATION_FAILED');
    // kafkajs's retrier wraps what failed as the cause (retry/index.js: cause: e.cause || e).
    const nonRetriable = kafkajs(KafkaJSNonRetriableError, refused, { cause: refused });
    expect(brokerAccessRefusalOf(nonRetriable)).toBe('SASL_AUTHENTICATION_FAILED');
    const exhausted = new KafkaJSNumberOfRetriesExceeded(nonRetriable, {
      retryCount: 5,
      retryTime: 100,
      cause: refused,
    } as never);
    expect(brokerAccessRefusalOf(exhausted)).toBe('SASL_AUTHENTICATION_FAILED');
    expect(brokerAccessRefusalOf(new Error('send failed', { cause: refused }))).toBe(
      'SASL_AUTHENTICATION_FAILED',
    );
  });

  it('names a broker certificate the client does not trust, or one that is not valid now', () => {
    for (const code of ['SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']) {
      const connection = new KafkaJSConnectionError(`Connection error: ${code}`, { code });
      expect(brokerAccessRefusalOf(connection)).toBe('TLS_CERTIFICATE_REJECTED');
      expect(brokerAccessRefusalOf(new Error('connect', { cause: tlsError(code) }))).toBe(
        'TLS_CERTIFICATE_REJECTED',
      );
    }
  });

  it('names a certificate outside its validity dates apart: the brokers renew it, not the client', () => {
    for (const code of ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']) {
      const connection = new KafkaJSConnectionError(`Connection error: ${code}`, { code });
      expect(brokerAccessRefusalOf(connection)).toBe('TLS_CERTIFICATE_EXPIRED');
      expect(brokerAccessRefusalOf(new Error('connect', { cause: tlsError(code) }))).toBe(
        'TLS_CERTIFICATE_EXPIRED',
      );
    }
  });

  it('leaves every other failure to the retry policy: a lost connection, a refused topic, a bug', () => {
    expect(
      brokerAccessRefusalOf(
        new KafkaJSConnectionError('Connection error: ECONNREFUSED', { code: 'ECONNREFUSED' }),
      ),
    ).toBeUndefined();
    expect(
      brokerAccessRefusalOf(
        kafkajs(KafkaJSProtocolError, {
          type: 'TOPIC_AUTHORIZATION_FAILED',
          code: 29,
          retriable: false,
          message: 'denied',
        }),
      ),
    ).toBeUndefined();
    expect(brokerAccessRefusalOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(brokerAccessRefusalOf(undefined)).toBeUndefined();
    expect(brokerAccessRefusalOf('a string')).toBeUndefined();
  });

  it('stops on a cause chain that loops', () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(brokerAccessRefusalOf(a)).toBeUndefined();
  });

  it('gives a remedy that names the settings, never a value', () => {
    expect(brokerAccessRemedy('SASL_AUTHENTICATION_FAILED')).toMatch(/KAFKA_SASL_USERNAME/);
    expect(brokerAccessRemedy('TLS_CERTIFICATE_REJECTED')).toMatch(/KAFKA_SSL_CA_FILE/);
    expect(brokerAccessRemedy('TLS_CERTIFICATE_EXPIRED')).toMatch(/renew/);
  });
});
