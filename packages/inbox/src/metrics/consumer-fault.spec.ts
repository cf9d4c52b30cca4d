import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSProtocolError,
  KafkaJSSASLAuthenticationError,
} from 'kafkajs';
import { consumerFaultOf, describeConsumerFault, hidesCause } from './consumer-fault';

/** kafkajs's error classes take (error, options) at run time; their typings say less. */
type AnyError = new (...args: unknown[]) => Error;
const kafkajs = (type: unknown, ...args: unknown[]) => new (type as AnyError)(...args);
const protocol = (type: string, code: number) =>
  kafkajs(KafkaJSProtocolError, { type, code, retriable: false, message: `${type} message` });

const context = {
  topics: ['shop.parcel.events', 'shop.crate.events', 'packer.retry'],
  groupId: 'shop.packer',
};

describe('consumerFaultOf', () => {
  it('names the topic the ACLs deny and the grant to make, as kafkajs wraps the refusal', () => {
    const refused = protocol('TOPIC_AUTHORIZATION_FAILED', 29);
    // A crashed consumer's error: kafkajs's retrier wraps what failed.
    const crashed = kafkajs(KafkaJSNonRetriableError, refused, { cause: refused });
    expect(consumerFaultOf(crashed, context, ['shop.crate.events'])).toEqual({
      code: 'TOPIC_AUTHORIZATION_FAILED',
      subject: 'shop.crate.events',
      remedy: expect.stringContaining('grant this principal READ on shop.crate.events'),
    });
  });

  it('names every topic it reads when the cluster could not say which one it denies', () => {
    const fault = consumerFaultOf(protocol('TOPIC_AUTHORIZATION_FAILED', 29), context, []);
    expect(fault.subject).toBe('shop.parcel.events, shop.crate.events, packer.retry');
  });

  it('names the group the ACLs deny', () => {
    expect(consumerFaultOf(protocol('GROUP_AUTHORIZATION_FAILED', 30), context)).toEqual({
      code: 'GROUP_AUTHORIZATION_FAILED',
      subject: 'shop.packer',
      remedy: expect.stringContaining('READ on the group shop.packer'),
    });
  });

  it('names the group when kafkajs finds no coordinator for it (its report of a denied group), and keeps a known denial', () => {
    const notFound = Object.assign(new Error('Failed to find group coordinator'), {
      name: 'KafkaJSGroupCoordinatorNotFound',
    });
    const fault = consumerFaultOf(notFound, context);
    expect(fault).toEqual({
      code: 'GROUP_COORDINATOR_NOT_FOUND',
      subject: 'shop.packer',
      remedy: expect.stringMatching(/GROUP_AUTHORIZATION_FAILED.*READ on the group/),
    });
    const denied = {
      ...consumerFaultOf(protocol('GROUP_AUTHORIZATION_FAILED', 30), context),
      since: '2026-12-07T03:00:00.000Z',
    };
    expect(hidesCause(denied, fault)).toBe(true);
    expect(hidesCause(undefined, fault)).toBe(false);
    expect(hidesCause({ ...denied, code: 'SASL_AUTHENTICATION_FAILED' }, fault)).toBe(false);
  });

  it('names a refused login, an untrusted and an expired certificate, on the cluster as a whole', () => {
    const login = kafkajs(
      KafkaJSSASLAuthenticationError,
      'SASL SCRAM SHA512 authentication failed',
    );
    expect(consumerFaultOf(login, context)).toMatchObject({
      code: 'SASL_AUTHENTICATION_FAILED',
      subject: 'kafka',
    });
    const expired = new KafkaJSConnectionError('Connection error: certificate has expired', {
      code: 'CERT_HAS_EXPIRED',
    });
    expect(consumerFaultOf(expired, context)).toMatchObject({
      code: 'TLS_CERTIFICATE_EXPIRED',
      subject: 'kafka',
      remedy: expect.stringMatching(/renew/),
    });
    const untrusted = new KafkaJSConnectionError('Connection error', {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(consumerFaultOf(untrusted, context).code).toBe('TLS_CERTIFICATE_REJECTED');
  });

  it("keeps kafkajs's code, or the error's name and message, for anything else", () => {
    expect(consumerFaultOf(protocol('NOT_COORDINATOR', 16), context)).toMatchObject({
      code: 'NOT_COORDINATOR',
    });
    expect(consumerFaultOf(new TypeError('x is undefined'), context)).toEqual({
      code: 'TypeError',
      subject: 'kafka',
      remedy: 'x is undefined',
    });
  });

  it('reads as one line: since when, the code, the subject and the remedy', () => {
    const fault = { ...consumerFaultOf(protocol('GROUP_AUTHORIZATION_FAILED', 30), context) };
    expect(describeConsumerFault({ ...fault, since: '2026-12-07T03:00:00.000Z' })).toMatch(
      /^the consumer is not reading since 2026-12-07T03:00:00.000Z: GROUP_AUTHORIZATION_FAILED on shop.packer; grant/,
    );
  });
});
