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
});
