/**
 * node -r @swc-node/register bench/relay-round-trips.ts: how many round trips to the database
 * the relay makes per claim and per outcome, on MariaDB and on PostgreSQL. A round trip is a
 * burst of writes on a database socket after its last reply (so START TRANSACTION sent with the
 * next statement, or several statements in one query, count once). The relay is driven one
 * round at a time (claim, send to an in-memory publisher, record), so each round trip belongs
 * to the step that made it. The first claim also looks for expired leases (as a claim does at
 * most once a second), so it is reported apart from the later ones. Prints one JSON line per
 * engine and number of versions per aggregate; no Kafka.
 */
import 'reflect-metadata';
import net from 'node:net';
import { OrderCreatedV1 } from '@app/trading-events';
import {
  createPostgresTestDatabase,
  createTestDatabase,
  openOutboxDatabase,
} from '@outbox-inbox/test-kit';
import { orderCreated } from '@app/trading-test-kit';
import { createOutboxRelay, OutboxWriter } from '@outbox-inbox/outbox';
import { InMemoryOutboxPublisher } from '@outbox-inbox/outbox/testing';

const EVENTS = Number(process.env.ROUND_TRIP_EVENTS ?? 2_000);
const DB_PORTS = new Set([3306, 5432]);

let roundTrips = 0;
const replied = new WeakMap<net.Socket, boolean>();
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
  if (DB_PORTS.has(this.remotePort ?? 0)) {
    if (!replied.has(this)) this.on('data', () => replied.set(this, true));
    if (replied.get(this) !== false) roundTrips += 1;
    replied.set(this, false);
  }
  return (write as (...a: unknown[]) => boolean).apply(this, args);
} as typeof write;

async function measure(engine: 'mysql' | 'postgres', versions: number) {
  const database =
    engine === 'postgres'
      ? await createPostgresTestDatabase('round_trips')
      : await createTestDatabase('mysql://root@127.0.0.1:3306', 'round_trips');
  const dataSource = await openOutboxDatabase(database.url, 4);
  try {
    const writer = new OutboxWriter();
    const perVersion = EVENTS / versions;
    for (let version = 1; version <= versions; version++) {
      for (let i = 0; i < perVersion; i += 100) {
        await dataSource.transaction(async (manager) => {
          for (let j = i; j < Math.min(perVersion, i + 100); j++) {
            await writer.add(manager, OrderCreatedV1, {
              aggregateId: `rt${j}`,
              aggregateVersion: version,
              payload: orderCreated(`rt${j}`),
            });
          }
        });
      }
    }
    const relay = createOutboxRelay({
      dataSource,
      publisher: new InMemoryOutboxPublisher(),
      topicFor: () => 'round.trips',
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const parts = relay as unknown as {
      parts: {
        connections: { open: () => Promise<void> };
        claims: { claim: () => Promise<unknown> };
        outcomes: Record<string, (...a: unknown[]) => Promise<number>>;
      };
    };
    const { claims, outcomes, connections } = parts.parts;
    await connections.open(); // the relay's pool: its connection set-up is not counted
    const tally = {
      claims: 0,
      firstClaimTrips: 0,
      claimTrips: 0,
      outcomes: 0,
      outcomeTrips: 0,
      extends: 0,
      claimMs: 0,
      extendMs: 0,
      outcomeMs: 0,
    };
    const claim = claims.claim.bind(claims);
    claims.claim = async () => {
      const before = roundTrips;
      const t0 = performance.now();
      const result = await claim();
      if (result) tally.claimMs += performance.now() - t0;
      // The last, empty claim is left out: it finds nothing to lease.
      if (result) {
        tally.claims += 1;
        if (tally.claims === 1) tally.firstClaimTrips = roundTrips - before;
        else tally.claimTrips += roundTrips - before;
      }
      return result;
    };
    for (const name of ['markSent', 'markFailed', 'markDead', 'release', 'extendLease']) {
      const method = outcomes[name].bind(outcomes);
      outcomes[name] = async (...args: unknown[]) => {
        const before = roundTrips;
        const t0 = performance.now();
        const result = await method(...args);
        if (name === 'extendLease') {
          tally.extends += roundTrips - before;
          tally.extendMs += performance.now() - t0;
        } else {
          tally.outcomeMs += performance.now() - t0;
          tally.outcomes += 1;
          tally.outcomeTrips += roundTrips - before;
        }
        return result;
      };
    }
    let rows = 0;
    for (let n = await relay.relayOnce(); n > 0; n = await relay.relayOnce()) rows += n;
    await relay.stop();
    return {
      engine,
      versions,
      rows,
      claims: tally.claims,
      roundTripsFirstClaim: tally.firstClaimTrips,
      roundTripsPerLaterClaim: tally.claimTrips / (tally.claims - 1),
      extendLeasePerClaim: tally.extends / tally.claims,
      roundTripsPerOutcome: tally.outcomeTrips / tally.outcomes,
      msPerClaim: Math.round(tally.claimMs / tally.claims),
      msPerExtend: Math.round(tally.extendMs / tally.claims),
      msPerOutcome: Math.round(tally.outcomeMs / tally.outcomes),
    };
  } finally {
    await dataSource.destroy();
    await database.drop();
  }
}

async function main(): Promise<void> {
  for (const engine of ['mysql', 'postgres'] as const) {
    for (const versions of [1, 2]) {
      process.stdout.write(`${JSON.stringify(await measure(engine, versions))}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
