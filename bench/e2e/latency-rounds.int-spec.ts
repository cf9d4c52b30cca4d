// Smoke run of bench:e2e's latency rounds at a tiny size: the real stack (from dist/, as the
// bench runs it) and the minimal chain each complete every order, with balanced journals, and
// the results name the figures of both. No figure is judged: at this size they mean nothing.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BenchResult } from '../lib/results';

const ROOT = join(__dirname, '..', '..');
const ROUNDS = 2;
const CALLBACKS = 12;

jest.setTimeout(600_000);

describe('bench:e2e latency rounds, smoke run', () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'bench-e2e-smoke-'));

  afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

  it('runs the chain and the minimal chain in alternating rounds, every order booked and balanced', async () => {
    await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, 'bench', 'e2e.bench.ts')],
      {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          BENCH_RESULTS_DIR: resultsDir,
          BENCH_E2E_MAX_ORDERS: '16',
          BENCH_E2E_RAW_ORDERS: '16',
          BENCH_E2E_BURSTS: '1',
          BENCH_E2E_SECONDS: '1',
          BENCH_E2E_IDLE_SECONDS: '1',
          BENCH_E2E_LATENCY_ROUNDS: String(ROUNDS),
          BENCH_E2E_LATENCY_CALLBACKS: String(CALLBACKS),
        },
      },
    );
    const results = JSON.parse(readFileSync(join(resultsDir, 'e2e.json'), 'utf8')) as BenchResult[];
    const named = (start: string) => results.filter((r) => r.metric.startsWith(start));

    for (const chain of ['chain', 'minimal chain']) {
      const [books] = named(`latency rounds: ${chain}, orders with both journals`);
      expect(books).toMatchObject({
        value: ROUNDS * CALLBACKS,
        baselineValue: ROUNDS * CALLBACKS,
        met: true,
      });
    }
    const versus = results.filter((r) => r.metric.includes('chain vs minimal chain'));
    expect(versus.map((r) => r.metric.replace(/, chain vs minimal chain.*/, ''))).toEqual([
      'callback to payment journal booked, p99',
      'callback to payment journal booked, p50',
      'stage OrderPaid outbox row written → marked SENT, p50',
      'stage OrderPaid outbox row written → marked SENT, p99',
      'stage marked SENT → payment journal booked, p50',
      'stage marked SENT → payment journal booked, p99',
    ]);
    for (const row of versus) {
      expect([row.value, row.baselineValue, row.ratio].every(Number.isFinite)).toBe(true);
    }
  });
});
