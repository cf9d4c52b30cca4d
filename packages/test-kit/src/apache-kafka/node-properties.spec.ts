import { ClusterSecurity } from './cluster-security';
import { NodePorts, nodeProperties } from './node-properties';

const ports = (n: number): NodePorts[] =>
  Array.from({ length: n }, (_, i) => ({
    client: 9000 + i,
    advertised: 9100 + i,
    internal: 9200 + i,
    controller: 9300 + i,
  }));
const settings = (text: string) =>
  Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );

describe('nodeProperties', () => {
  it('on three nodes: replication factor 3 everywhere, two replicas in sync for acks=all', () => {
    const node = settings(nodeProperties(2, ports(3), '/data'));
    expect(node).toMatchObject({
      'node.id': '2',
      'default.replication.factor': '3',
      'min.insync.replicas': '2',
      'offsets.topic.replication.factor': '3',
      'transaction.state.log.replication.factor': '3',
      'transaction.state.log.min.isr': '2',
      'controller.quorum.voters': '1@127.0.0.1:9300,2@127.0.0.1:9301,3@127.0.0.1:9302',
    });
  });

  it('on one node: replication factor 1', () => {
    const node = settings(nodeProperties(1, ports(1), '/data'));
    expect(node).toMatchObject({
      'default.replication.factor': '1',
      'min.insync.replicas': '1',
      'offsets.topic.replication.factor': '1',
    });
  });

  it('listens on loopback only, advertises the client port (or its proxy) and never the controller to clients', () => {
    const node = settings(nodeProperties(1, ports(1), '/data'));
    expect(node.listeners).toBe(
      'PLAINTEXT://127.0.0.1:9000,INTERNAL://127.0.0.1:9200,CONTROLLER://127.0.0.1:9300',
    );
    expect(node['advertised.listeners']).toBe(
      'PLAINTEXT://127.0.0.1:9100,INTERNAL://127.0.0.1:9200',
    );
    expect(node['inter.broker.listener.name']).toBe('INTERNAL');
    expect(node['auto.create.topics.enable']).toBe('false');
  });

  it('secured: SASL_SSL everywhere, SCRAM for clients and brokers, PLAIN for the quorum, PEM TLS, and nothing allowed without an ACL', () => {
    const security: ClusterSecurity = {
      mechanism: 'scram-sha-512',
      caFile: '/tls/ca.pem',
      keystoreFile: '/tls/node-keystore.pem',
      users: { admin: 'secret', 'order-service': 'other' },
    };
    const node = settings(nodeProperties(1, ports(1), '/data', security));
    expect(node).toMatchObject({
      listeners: 'CLIENT://127.0.0.1:9000,INTERNAL://127.0.0.1:9200,CONTROLLER://127.0.0.1:9300',
      'listener.security.protocol.map': 'CLIENT:SASL_SSL,INTERNAL:SASL_SSL,CONTROLLER:SASL_SSL',
      'sasl.enabled.mechanisms': 'SCRAM-SHA-512',
      'sasl.mechanism.inter.broker.protocol': 'SCRAM-SHA-512',
      'sasl.mechanism.controller.protocol': 'PLAIN',
      'listener.name.controller.sasl.enabled.mechanisms': 'PLAIN',
      'ssl.keystore.type': 'PEM',
      'ssl.keystore.location': '/tls/node-keystore.pem',
      'ssl.truststore.location': '/tls/ca.pem',
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      'allow.everyone.if.no.acl.found': 'false',
      'super.users': 'User:admin',
    });
    // Only the admin's password is in a node's config; the services' are in the metadata.
    expect(node['listener.name.internal.scram-sha-512.sasl.jaas.config']).toContain(
      'username="admin" password="secret"',
    );
    expect(JSON.stringify(node)).not.toContain('other');
    // Sessions never end unless asked: no re-authentication deadline by default.
    expect(JSON.stringify(node)).not.toContain('reauth');
    const reauthing = settings(
      nodeProperties(1, ports(1), '/data', { ...security, reauthMs: 15_000 }),
    );
    expect(reauthing['listener.name.client.scram-sha-512.connections.max.reauth.ms']).toBe('15000');
  });
});
