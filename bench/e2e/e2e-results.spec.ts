import { e2eResults, E2eMeasurements } from './e2e-results';

const spread = (p50: number, p99: number, max: number) => ({ p50, p99, max, count: 100 });

function measured(p99: number, rssMb: number): E2eMeasurements {
  return {
    maxRate: 80,
    burstSize: 600,
    answeredRate: 100,
    cpuPerCallback: { 'order-service': 2 },
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
  it('meets the targets only when p99 < 100 ms and every RSS < 250 MB', () => {
    const targets = (m: E2eMeasurements) =>
      e2eResults(m)
        .filter((r) => r.target.startsWith('<'))
        .map((r) => [r.metric.split(',')[0], r.met]);
    expect(targets(measured(99, 249))).toEqual([
      ['callback to payment journal booked', true],
      ['order-service peak RSS under the steady load', true],
      ['accounting-service peak RSS under the steady load', true],
    ]);
    expect(targets(measured(100, 250))).toEqual([
      ['callback to payment journal booked', false],
      ['order-service peak RSS under the steady load', false],
      ['accounting-service peak RSS under the steady load', true],
    ]);
  });

  it('reports latencies against the 100 ms target and CPU against what the machine offered', () => {
    const results = e2eResults(measured(150, 200));
    const p99 = results.find((r) => r.metric.includes('booked, p99'))!;
    expect(p99).toMatchObject({ value: 150, baselineValue: 100, ratio: 1.5, met: false });
    const cpu = results.find((r) => r.metric === 'burst: order-service CPU time per callback')!;
    expect(cpu).toMatchObject({ value: 2, baselineValue: 25, ratio: 0.08 });
  });
});
