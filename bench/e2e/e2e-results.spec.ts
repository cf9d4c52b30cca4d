import { e2eResults, E2eMeasurements } from './e2e-results';

const spread = (p50: number, p99: number, max: number) => ({ p50, p99, max, count: 100 });

function measured(p99: number, rssMb: number, cpuMs = 2): E2eMeasurements {
  return {
    maxRate: 80,
    burstSize: 600,
    rounds: 1,
    answeredRate: 100,
    cpuPerCallback: { 'order-service': cpuMs },
    rawChains: [
      {
        orders: 400,
        lanes: 16,
        toPaying: { seconds: 1, cpuMs: { bench: 200, mariadbd: 200 } },
        fromCallback: { seconds: 1, cpuMs: { bench: 400, mariadbd: 400 } },
      },
    ],
    machineMsPerCallback: 25,
    cpuCount: 2,
    stages: {
      relay: spread(10, 40, 50),
      consume: spread(20, p99 - 40, p99),
      lastSentMs: 0,
      lastBookedMs: 0,
    },
    booked: spread(30, p99, p99 + 5),
    load: '40 callbacks/s',
    rssPeakMb: { 'order-service': rssMb, 'accounting-service': 100 },
  };
}

describe('e2eResults', () => {
  it('meets the latency and RSS targets only when p99 < 100 ms and every RSS < 250 MB', () => {
    const targets = (m: E2eMeasurements) =>
      e2eResults(m)
        .filter((r) => r.target.startsWith('<'))
        .map((r) => [r.metric.split(',')[0], r.met]);
    expect(targets(measured(99, 249))).toEqual([
      ['callback to payment journal booked', true],
      ['order-service peak RSS under load (burst and steady)', true],
      ['accounting-service peak RSS under load (burst and steady)', true],
      ['burst: CPU time per paid order', true],
    ]);
    expect(targets(measured(100, 250))).toEqual([
      ['callback to payment journal booked', false],
      ['order-service peak RSS under load (burst and steady)', false],
      ['accounting-service peak RSS under load (burst and steady)', true],
      ['burst: CPU time per paid order', true],
    ]);
  });

  it('meets the CPU target only at 12 ms per paid order or less, every process added up', () => {
    const cpu = (m: E2eMeasurements) =>
      e2eResults(m).find((r) => r.metric.startsWith('burst: CPU time per paid order'))!;
    const twoProcesses = (ms: number) => ({
      ...measured(50, 100),
      cpuPerCallback: { 'order-service': ms / 2, mariadbd: ms / 2 },
    });
    expect(cpu(twoProcesses(12))).toMatchObject({ value: 12, met: true });
    expect(cpu(twoProcesses(12.5))).toMatchObject({ value: 12.5, met: false });
    // Against the raw chain's CPU per order from the callback on: (400 + 400) / 400 orders.
    expect(cpu(twoProcesses(12))).toMatchObject({ baselineValue: 2, ratio: 6 });
  });

  it('reports the chain rate against the raw whole chain and the raw chain from the callback on', () => {
    const results = e2eResults(measured(50, 100));
    const ratio = (metric: string) => results.find((r) => r.metric === metric)!;
    // 400 orders in 1 + 1 s, and in 1 s from the callback on.
    expect(ratio('chain max rate vs raw whole-chain statements')).toMatchObject({
      value: 80,
      baselineValue: 200,
      ratio: 0.4,
    });
    expect(ratio('chain max rate vs raw statements from the callback on')).toMatchObject({
      value: 80,
      baselineValue: 400,
      ratio: 0.2,
    });
  });

  it('reports latencies against the 100 ms target and CPU against what the machine offered', () => {
    const results = e2eResults(measured(150, 200));
    const p99 = results.find((r) => r.metric.includes('booked, p99'))!;
    expect(p99).toMatchObject({ value: 150, baselineValue: 100, ratio: 1.5, met: false });
    const cpu = results.find((r) => r.metric.startsWith('burst: order-service CPU time'))!;
    expect(cpu).toMatchObject({ value: 2, baselineValue: 25, ratio: 0.08 });
  });

  it('takes the medians of the bursts and of the raw runs', () => {
    const fast = { seconds: 1, cpuMs: { bench: 400, mariadbd: 400 } };
    const slow = { seconds: 2, cpuMs: { bench: 800, mariadbd: 800 } };
    const results = e2eResults({
      ...measured(50, 100),
      rounds: 3,
      chainCpuPerCallback: [13, 11, 12],
      rawChains: [fast, slow, fast].map((fromCallback) => ({
        orders: 400,
        lanes: 16,
        toPaying: { seconds: 1, cpuMs: { bench: 200, mariadbd: 200 } },
        fromCallback,
      })),
    });
    expect(
      results.find((r) => r.metric.startsWith('burst: CPU time per paid order')),
    ).toMatchObject({ value: 12, baselineValue: 2, met: true });
    expect(
      results.find((r) => r.metric === 'chain max rate vs raw statements from the callback on'),
    ).toMatchObject({ baselineValue: 400 });
  });

  it("reports the consumers' fetch cost: per callback against the bursts, idle against full waits", () => {
    const results = e2eResults({
      ...measured(50, 100),
      fetchCost: {
        fetchMaxWaitMs: 100,
        brokers: 3,
        consumers: 2,
        burstFetchesPerCallback: 0.5,
        steadyFetchesPerCallback: 2,
        steadyCpuPerCallback: 4,
        burstConsumerCpuPerCallback: 1,
        steadyConsumerCpuPerCallback: 1.5,
        idleSeconds: 5,
        idleFetchesPerSecond: 54,
        idleConsumerCpuMsPerSecond: 27,
      },
    });
    const row = (start: string) => results.find((r) => r.metric.startsWith(start))!;
    expect(row('steady (half of max): fetch requests per callback')).toMatchObject({
      value: 2,
      baselineValue: 0.5,
      ratio: 4,
    });
    expect(row('steady (half of max): CPU time per paid order')).toMatchObject({
      value: 4,
      baselineValue: 2, // the bursts' CPU per paid order (measured(): one process at 2 ms)
      ratio: 2,
    });
    // 2 consumers x 3 brokers x 1000 / 100 ms = 60 fetches/s if every fetch waits its whole time.
    expect(row('idle: fetch requests per second')).toMatchObject({
      value: 54,
      baselineValue: 60,
      ratio: 0.9,
    });
    expect(row('idle: CPU time per second')).toMatchObject({ value: 27, ratio: 0.5 });
    expect(row('idle: fetch requests per second').metric).toContain('fetch wait 100 ms');
    expect(e2eResults(measured(50, 100)).some((r) => r.metric.startsWith('idle:'))).toBe(false);
  });

  it("reports the broker's own CPU apart from all processes, when it runs on this machine", () => {
    const cost = {
      fetchMaxWaitMs: 1000,
      brokers: 3,
      consumers: 2,
      burstFetchesPerCallback: 0.5,
      steadyFetchesPerCallback: 1,
      steadyCpuPerCallback: 4,
      burstConsumerCpuPerCallback: 1,
      steadyConsumerCpuPerCallback: 1,
      idleSeconds: 5,
      idleFetchesPerSecond: 6,
      idleConsumerCpuMsPerSecond: 3,
    };
    const broker = {
      processes: 3,
      burstCpuPerCallback: 1,
      steadyCpuPerCallback: 3,
      idleCpuMsPerSecond: 30,
    };
    const results = e2eResults({ ...measured(50, 100), fetchCost: { ...cost, broker } });
    const row = (start: string) => results.find((r) => r.metric.startsWith(start))!;
    expect(row('burst: CPU time per callback, the broker')).toMatchObject({
      value: 1,
      baselineValue: 2,
      ratio: 0.5,
    });
    expect(row('steady (half of max): CPU time per callback, the broker')).toMatchObject({
      ratio: 3,
    });
    expect(row('idle: CPU time per second, the broker')).toMatchObject({ value: 30, ratio: 5 });
    // The same names for the mock's one process and Apache Kafka's three: rows match across brokers.
    expect(row('idle: CPU time per second, the broker').metric).toBe(
      'idle: CPU time per second, the broker\'s processes (3; not in "all processes"), fetch wait 1000 ms',
    );
    expect(
      e2eResults({ ...measured(50, 100), fetchCost: cost }).some((r) =>
        r.metric.includes("the broker's processes"),
      ),
    ).toBe(false);
  });
});
