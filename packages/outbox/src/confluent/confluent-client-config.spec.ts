import { Kafka } from 'kafkajs';
import { confluentClientConfig } from './confluent-client-config';

describe("confluentClientConfig: the kafkajs path's settings for librdkafka", () => {
  const brokers = ['b1:9093', 'b2:9093'];

  it('takes brokers, clientId and SCRAM as the kafkajs path does, with TLS on', () => {
    const sasl = { mechanism: 'scram-sha-512' as const, username: 'relay', password: 'secret' };
    expect(confluentClientConfig({ brokers, clientId: 'orders', ssl: true, sasl })).toEqual({
      kafkaJS: { brokers, clientId: 'orders', ssl: true, sasl, logLevel: 2 },
    });
  });

  it("turns kafkajs's tls.connect options into librdkafka's PEM properties", () => {
    const config = confluentClientConfig({
      brokers,
      clientId: 'orders',
      ssl: {
        ca: [
          '-----BEGIN CERTIFICATE-----\nca\n',
          Buffer.from('-----BEGIN CERTIFICATE-----\nca2\n'),
        ],
        cert: '-----BEGIN CERTIFICATE-----\nme\n',
        key: '-----BEGIN PRIVATE KEY-----\nkey\n',
        passphrase: 'pass',
        rejectUnauthorized: false,
      },
    });
    expect(config).toMatchObject({
      kafkaJS: { ssl: true },
      'ssl.ca.pem': '-----BEGIN CERTIFICATE-----\nca\n\n-----BEGIN CERTIFICATE-----\nca2\n',
      'ssl.certificate.pem': '-----BEGIN CERTIFICATE-----\nme\n',
      'ssl.key.pem': '-----BEGIN PRIVATE KEY-----\nkey\n',
      'ssl.key.password': 'pass',
      'enable.ssl.certificate.verification': false,
    });
  });

  it('leaves TLS off when the kafkajs path has it off', () => {
    expect(confluentClientConfig({ brokers, clientId: 'orders' }).kafkaJS).not.toHaveProperty(
      'ssl',
    );
    expect(confluentClientConfig({ brokers, clientId: 'orders', ssl: false }).kafkaJS?.ssl).toBe(
      false,
    );
  });

  it("refuses what librdkafka cannot take: a kafkajs client, and kafkajs's aws SASL", () => {
    expect(() => confluentClientConfig({ client: new Kafka({ brokers }) })).toThrow(
      /kafkajs `client`/,
    );
    expect(() =>
      confluentClientConfig({
        brokers,
        clientId: 'orders',
        sasl: {
          mechanism: 'aws',
          authorizationIdentity: 'id',
          accessKeyId: 'key',
          secretAccessKey: 'secret',
        },
      }),
    ).toThrow(/not aws/);
  });
});
