import { comparisonNodes, parseRunOptions } from './run-options';

const PARTS = ['relay', 'peers', 'consumer', 'db', 'http', 'e2e'];

describe('parseRunOptions', () => {
  it('runs every part on the one broker KAFKA names when nothing is asked', () => {
    expect(parseRunOptions([], PARTS, {})).toEqual({ parts: PARTS });
  });

  it("takes the named parts in the runner's order", () => {
    expect(parseRunOptions(['e2e', 'relay'], PARTS, {})).toEqual({ parts: ['relay', 'e2e'] });
  });

  it('compares brokers with --brokers, in the order given, either spelling', () => {
    expect(parseRunOptions(['--brokers', 'mock,apache', 'relay', 'e2e'], PARTS, {})).toEqual({
      parts: ['relay', 'e2e'],
      brokers: ['mock', 'apache'],
    });
    expect(parseRunOptions(['consumer', '--brokers=apache,mock'], PARTS, {})).toEqual({
      parts: ['consumer'],
      brokers: ['apache', 'mock'],
    });
  });

  it('reads BENCH_BROKERS, which --brokers overrides', () => {
    expect(parseRunOptions([], PARTS, { BENCH_BROKERS: 'mock, apache' }).brokers).toEqual([
      'mock',
      'apache',
    ]);
    expect(
      parseRunOptions(['--brokers', 'apache'], PARTS, { BENCH_BROKERS: 'mock' }).brokers,
    ).toEqual(['apache']);
  });

  it('refuses what it cannot do as asked', () => {
    expect(() => parseRunOptions(['--brokers', 'mock,redpanda'], PARTS, {})).toThrow(
      /--brokers takes mock, apache/,
    );
    expect(() => parseRunOptions(['--brokers'], PARTS, {})).toThrow(/needs a list/);
    expect(() => parseRunOptions(['--brokers', 'mock,mock'], PARTS, {})).toThrow(/twice/);
    expect(() => parseRunOptions(['--nodes', '3'], PARTS, {})).toThrow(/unknown option --nodes/);
    expect(() => parseRunOptions(['relays'], PARTS, {})).toThrow(/unknown part\(s\) relays/);
    // A comparison starts its own brokers: it would not measure the cluster KAFKA_BROKERS names.
    expect(() =>
      parseRunOptions(['--brokers', 'mock,apache'], PARTS, { KAFKA_BROKERS: 'a:9092' }),
    ).toThrow(/unset KAFKA_BROKERS/);
    expect(parseRunOptions([], PARTS, { KAFKA_BROKERS: 'a:9092' })).toEqual({ parts: PARTS });
  });
});

describe('comparisonNodes', () => {
  it('runs three Apache Kafka nodes unless KAFKA_NODES says 1', () => {
    expect(comparisonNodes({})).toBe('3');
    expect(comparisonNodes({ KAFKA_NODES: '1' })).toBe('1');
    expect(() => comparisonNodes({ KAFKA_NODES: '2' })).toThrow(/KAFKA_NODES must be 1 or 3/);
  });
});
