import { kafkaChoice } from './kafka-choice';

describe('kafkaChoice', () => {
  it('uses KAFKA_BROKERS when it is set, whatever KAFKA says, and nothing is started', () => {
    expect(kafkaChoice({ KAFKA_BROKERS: 'a:1, b:2', KAFKA: 'apache' })).toEqual({
      kind: 'external',
      brokers: ['a:1', 'b:2'],
      clusterStateFile: undefined,
    });
  });

  it('names the state file of the Apache Kafka cluster behind KAFKA_BROKERS', () => {
    expect(kafkaChoice({ KAFKA_BROKERS: 'a:1', KAFKA_CLUSTER_STATE: '/x/cluster.json' })).toEqual({
      kind: 'external',
      brokers: ['a:1'],
      clusterStateFile: '/x/cluster.json',
    });
  });

  it('starts Apache Kafka with KAFKA=apache, one node unless KAFKA_NODES says 3', () => {
    expect(kafkaChoice({ KAFKA: 'apache' })).toEqual({ kind: 'apache', nodes: 1, secure: false });
    expect(kafkaChoice({ KAFKA: 'apache', KAFKA_NODES: '3' })).toEqual({
      kind: 'apache',
      nodes: 3,
      secure: false,
    });
  });

  it('starts a secured Apache Kafka with KAFKA_SECURE=true', () => {
    expect(kafkaChoice({ KAFKA: 'apache', KAFKA_SECURE: 'true' })).toEqual({
      kind: 'apache',
      nodes: 1,
      secure: true,
    });
    expect(() => kafkaChoice({ KAFKA: 'apache', KAFKA_SECURE: 'yes' })).toThrow(/KAFKA_SECURE/);
  });

  it('starts the mock by default', () => {
    expect(kafkaChoice({})).toEqual({ kind: 'mock' });
    expect(kafkaChoice({ KAFKA: 'mock', KAFKA_BROKERS: '' })).toEqual({ kind: 'mock' });
  });

  it('refuses a KAFKA or KAFKA_NODES it does not know', () => {
    expect(() => kafkaChoice({ KAFKA: 'redpanda' })).toThrow(/KAFKA must be "mock" or "apache"/);
    expect(() => kafkaChoice({ KAFKA: 'apache', KAFKA_NODES: '2' })).toThrow(/KAFKA_NODES/);
  });
});
