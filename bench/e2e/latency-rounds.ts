import { waitFor } from '@outbox-inbox/test-kit';
import { Pool } from 'mysql2/promise';
import { runAtFixedRate } from '../lib/rate-schedule';
import { spread, Spread } from '../lib/stats';
import { Books, booksComplete, readBooks } from './books';
import { JournalWatcher } from './journal-watcher';
import { LoopDelay, LoopDelayMeter } from './loop-delay';
import { RelayTrace } from './relay-trace';
import { stageTimes, StageTimes } from './stages';

/** How long a round may take to book its last journal before the bench gives up. */
const ROUND_TIMEOUT_MS = 120_000;

/** One of the two chains the latency rounds compare. */
export interface LatencyChain {
  name: string;
  /** Its order database (OrderPaid's outbox row and SENT time) and its accounting database. */
  orderDb: Pool;
  accountingDb: Pool;
  /** Its consumers' databases, whose inbox rows show that they took an event in. */
  consumerDbs: Pool[];
  /** Watches its payment journals (started). */
  journals: JournalWatcher;
  /** The event-loop delay of its processes. */
  loopDelay: LoopDelayMeter;
  /** Where its OrderPaid rows waited, from the services' spans (BENCH_E2E_TRACE), if traced. */
  trace?: (orderIds: string[]) => RelayTrace;
  /** Creates `count` orders up to PAYING; `callback(i)` delivers the i-th one's pay callback. */
  prepare(count: number): Promise<{ ids: string[]; callback: (i: number) => Promise<void> }>;
}

/** What one chain measured in one round. */
export interface LatencyRound {
  /** Callback sent → payment journal seen committed. */
  booked: Spread;
  stages: StageTimes;
  books: Books;
  /** The worst lag of a callback behind its due time (open loop on a busy machine). */
  lateMs: number;
  /** Event-loop delay by process, from the first callback to the last payment journal. */
  loopDelay: Record<string, LoopDelay>;
  trace?: RelayTrace;
}

/**
 * One round of one chain: `count` orders made PAYING and taken in by its consumers (so that no
 * backlog of earlier events sits in front of the callbacks), then their callbacks at `rate`
 * per second, open loop, each timed until its payment journal is seen; then, once every coupon
 * journal is booked too, the stage times and the books. Fails unless every order has both
 * journals, once, balanced.
 */
export async function runLatencyRound(
  chain: LatencyChain,
  count: number,
  rate: number,
): Promise<LatencyRound> {
  const { ids, callback } = await chain.prepare(count);
  await waitForIntake(chain, ids);
  const sentAt: number[] = new Array(count);
  await chain.loopDelay.start();
  const { lateMs } = await runAtFixedRate(count, rate, async (i) => {
    sentAt[i] = performance.now();
    await callback(i);
  });
  await chain.journals.waitForAll(ids, ROUND_TIMEOUT_MS);
  const loopDelay = await chain.loopDelay.read();
  const booked = spread(ids.map((id, i) => chain.journals.seenAt.get(id)! - sentAt[i]));
  let books = await readBooks(chain.accountingDb, ids);
  await waitFor(
    async () => {
      books = await readBooks(chain.accountingDb, ids);
      return books.complete === ids.length;
    },
    {
      timeoutMs: ROUND_TIMEOUT_MS,
      intervalMs: 50,
      description: `${chain.name}: both journals of ${ids.length} orders`,
    },
  );
  if (!booksComplete(books)) {
    throw new Error(`${chain.name} booked ${JSON.stringify(books)}`);
  }
  const stages = await stageTimes(chain.orderDb, chain.accountingDb, ids);
  return { booked, stages, books, lateMs, loopDelay, trace: await traced(chain, ids) };
}

/** The round's relay trace, once the services have exported its spans (they batch them). */
async function traced(chain: LatencyChain, ids: string[]): Promise<RelayTrace | undefined> {
  const trace = chain.trace;
  if (!trace) return undefined;
  return waitFor(
    () => {
      const result = trace(ids);
      return result.orders === ids.length && result;
    },
    {
      timeoutMs: 30_000,
      intervalMs: 200,
      description: `${chain.name}: the spans of ${ids.length} orders`,
    },
  );
}

/** Waits until each consumer has an inbox row for every order's OrderPaymentStarted (version 2). */
async function waitForIntake(chain: LatencyChain, ids: string[]): Promise<void> {
  const keys = ids.map((id) => `OrderPaymentStarted:${id}:2`);
  await waitFor(
    async () => {
      for (const db of chain.consumerDbs) {
        const [[row]] = (await db.query(
          'SELECT COUNT(*) AS n FROM t_inbox WHERE event_key IN (?)',
          [keys],
        )) as unknown as [[{ n: number | string }]];
        if (Number(row.n) < keys.length) return false;
      }
      return true;
    },
    {
      timeoutMs: ROUND_TIMEOUT_MS,
      intervalMs: 50,
      description: `${chain.name}: ${ids.length} orders PAYING taken in by its consumers`,
    },
  );
}
