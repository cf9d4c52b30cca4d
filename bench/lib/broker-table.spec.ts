import { brokerMarkdownTable, BrokerRun, mergeByBroker, mergeTexts } from './broker-table';
import { BenchResult, ratioResult } from './results';

const result = (metric: string, value: number, baselineValue = 100, met = true): BenchResult =>
  ratioResult(metric, value, 'events/s', 'raw produce', baselineValue, '>= 0.5x raw', met);

describe('mergeTexts', () => {
  it('keeps a text all brokers share, and writes only the numbers that differ as a / b', () => {
    expect(mergeTexts(['raw produce', 'raw produce'])).toBe('raw produce');
    expect(
      mergeTexts([
        'p99, at 172 callbacks/s (50% of max)',
        'p99, at 1,120 callbacks/s (50% of max)',
      ]),
    ).toBe('p99, at 172 / 1,120 callbacks/s (50% of max)');
    expect(mergeTexts(['one thing', 'another'])).toBe('one thing / another');
    expect(mergeTexts([])).toBe('');
  });
});

describe('mergeByBroker', () => {
  const mock: BrokerRun = {
    broker: 'mock',
    parts: [
      {
        part: 'relay',
        results: [result('relay vs raw produce', 20_000, 40_000, false), result('naive', 1_000)],
      },
      {
        part: 'e2e',
        results: [
          result('latency p50, at 172 callbacks/s', 75),
          result('latency p99, at 172 callbacks/s', 173),
        ],
      },
    ],
  };
  const apache: BrokerRun = {
    broker: 'apache',
    parts: [
      { part: 'relay', results: [result('relay vs raw produce', 9_000, 12_000)] },
      {
        part: 'e2e',
        results: [
          result('latency p50, at 120 callbacks/s', 20),
          result('latency p99, at 120 callbacks/s', 60),
        ],
      },
      { part: 'consumer', results: [result('inbox consumer', 4_000)] },
    ],
  };

  it('puts each metric of each part on one row, with every broker beside it', () => {
    const rows = mergeByBroker([mock, apache]);
    expect(rows.map((r) => [r.part, r.metric])).toEqual([
      ['relay', 'relay vs raw produce'],
      ['relay', 'naive'],
      ['e2e', 'latency p50, at 172 / 120 callbacks/s'],
      ['e2e', 'latency p99, at 172 / 120 callbacks/s'],
      ['consumer', 'inbox consumer'],
    ]);
    expect(rows[0].byBroker.mock).toMatchObject({ value: 20_000, ratio: 0.5, met: false });
    expect(rows[0].byBroker.apache).toMatchObject({ value: 9_000, ratio: 0.75, met: true });
    // A p50 is never matched with a p99, though their names differ only in numbers: by order.
    expect(rows[3].byBroker.mock?.value).toBe(173);
    expect(rows[3].byBroker.apache?.value).toBe(60);
  });

  it('keeps a row only one broker has, with nothing in the other', () => {
    const rows = mergeByBroker([mock, apache]);
    expect(rows[1].byBroker).toEqual({
      mock: expect.objectContaining({ value: 1_000 }),
      apache: undefined,
    });
    expect(rows[4].byBroker).toEqual({
      mock: undefined,
      apache: expect.objectContaining({ value: 4_000 }),
    });
  });

  it('refuses a broker named twice', () => {
    expect(() => mergeByBroker([mock, mock])).toThrow(/"mock" appears twice/);
  });
});

describe('brokerMarkdownTable', () => {
  it('writes a value, baseline, ratio and met column per broker, in the order given', () => {
    const table = brokerMarkdownTable([
      {
        broker: 'mock',
        parts: [{ part: 'relay', results: [result('a | b', 20_000, 40_000, false)] }],
      },
      { broker: 'apache', parts: [{ part: 'relay', results: [result('a | b', 9_000, 12_000)] }] },
    ]).split('\n');
    expect(table[0]).toBe(
      '| part | metric | baseline | target | mock: value | mock: baseline | mock: ratio | mock: met | apache: value | apache: baseline | apache: ratio | apache: met |',
    );
    expect(table[2]).toBe(
      '| relay | a \\| b | raw produce | >= 0.5x raw | 20000 events/s | 40000 | 0.50x | **no** | 9000 events/s | 12000 | 0.75x | yes |',
    );
  });

  it('writes dashes where a broker has no result', () => {
    const table = brokerMarkdownTable([
      { broker: 'mock', parts: [{ part: 'db', results: [result('inserts', 50)] }] },
      { broker: 'apache', parts: [] },
    ]);
    expect(table.split('\n')[2]).toBe(
      '| db | inserts | raw produce | >= 0.5x raw | 50.00 events/s | 100 | 0.50x | yes | — | — | — | — |',
    );
  });
});
