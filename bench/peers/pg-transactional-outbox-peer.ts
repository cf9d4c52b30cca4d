// pg-transactional-outbox (the PostgreSQL peer) set up as its README shows: its outbox table,
// created with its DatabaseSetup, a GeneralMessageHandler that publishes each message to Kafka,
// and its listener, in polling mode (its next_outbox_messages function, called every
// `pollingIntervalMs` for up to `batchSize` messages) or in logical-replication mode (its
// publication and a pgoutput slot; needs wal_level=logical). Every message gets the aggregate
// id as its segment: the peer then hands out only the oldest unprocessed message of each
// segment, its way of keeping per-aggregate order, which the relay keeps too. The handler
// sends with the relay's producer settings, one send per message as the peer calls it. Loaded
// with import() so that a missing package skips the bench; the few names used are typed here.
import { Pool } from 'pg';
import { Producer } from 'kafkajs';
import { pgPeerLogger } from './pg-peer-logger';

/** The package, as npm names it and as the results name it. */
export const PG_PEER_PACKAGE = 'pg-transactional-outbox';

/** The message the peer stores: the relay's row as the peer's fields. */
export interface PgPeerMessage {
  aggregateType: string;
  aggregateId: string;
  messageType: string;
  /** The envelope, parsed: the peer stores it as jsonb. */
  payload: unknown;
  /** The relay's Kafka headers, kept in the peer's metadata. */
  metadata: Record<string, string>;
}

/** How the peer finds new messages, and its tuning. */
export type PgPeerMode =
  { kind: 'polling'; batchSize: number; pollingIntervalMs: number } | { kind: 'replication' };

/** A running peer on one database. */
export interface PgPeer {
  published(): number;
  /** Gets the messages ready without the peer seeing them (polling: stored, locked). */
  prepare(messages: PgPeerMessage[]): Promise<void>;
  /** Lets the peer see them (polling: unlocked in one statement; replication: inserted). */
  release(messages: PgPeerMessage[]): Promise<void>;
  /** Messages not yet marked processed. */
  unprocessed(): Promise<number>;
  /** Warnings and errors the peer logged (each kind is printed once). */
  warnings(): number;
  close(): Promise<void>;
}

interface StoredMessage {
  aggregateId: string;
  payload: unknown;
  metadata?: Record<string, string>;
}
type Listener = (
  config: object,
  handler: { handle(message: StoredMessage): Promise<void> },
  logger: unknown,
  strategies?: object,
) => [() => Promise<void>];
/** The part of the package's API the bench uses. */
interface PgPeerApi {
  DatabaseSetup: Record<
    'dropAndCreateTable' | 'createPollingFunction' | 'setupPollingIndexes' | 'setupReplicationCore',
    (config: object) => string
  >;
  initializePollingMessageListener: Listener;
  initializeReplicationMessageListener: Listener;
  createReplicationSegmentMutexConcurrencyController(): object;
}

/** The package, or why it cannot be loaded. */
export async function loadPgPeer(): Promise<{ api: PgPeerApi } | { error: string }> {
  try {
    const name = PG_PEER_PACKAGE;
    return { api: (await import(name)) as PgPeerApi };
  } catch (error) {
    return { error: String((error as Error).message ?? error).split('\n')[0] };
  }
}

const TABLE = { schema: 'public', table: 'outbox' };
const NAMES = { publication: 'bench_pg_peer_pub', replicationSlot: 'bench_pg_peer_slot' };

/**
 * Creates the peer's table (and its polling function or its publication and slot) in the
 * database of `databaseUrl`, and starts its listener, publishing to `topic` with `producer`
 * (connected, warmed up).
 */
export async function startPgPeer(
  api: PgPeerApi,
  databaseUrl: string,
  mode: PgPeerMode,
  producer: Producer,
  topic: string,
): Promise<PgPeer> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const database = new URL(databaseUrl).pathname.slice(1);
  const setup = { outboxOrInbox: 'outbox', database, listenerRole: 'postgres', ...TABLE };
  await pool.query(api.DatabaseSetup.dropAndCreateTable(setup));
  if (mode.kind === 'polling') {
    const polling = { ...setup, nextMessagesName: 'next_outbox_messages' };
    await pool.query(api.DatabaseSetup.createPollingFunction(polling));
    await pool.query(api.DatabaseSetup.setupPollingIndexes(polling));
  } else {
    await pool.query(api.DatabaseSetup.setupReplicationCore({ ...setup, ...NAMES }));
    // Alone: a slot cannot be created in a transaction that has written.
    await pool.query("SELECT pg_create_logical_replication_slot($1, 'pgoutput')", [
      NAMES.replicationSlot,
    ]);
  }

  let published = 0;
  const handler = {
    async handle(message: StoredMessage): Promise<void> {
      await producer.send({
        topic,
        acks: -1,
        messages: [
          {
            key: message.aggregateId,
            value: JSON.stringify(message.payload),
            headers: message.metadata,
          },
        ],
      });
      published += 1;
    },
  };
  const log = pgPeerLogger(PG_PEER_PACKAGE);
  const [shutdown] = listen(api, databaseUrl, mode, handler, log.logger);
  const table = `${TABLE.schema}.${TABLE.table}`;
  return {
    published: () => published,
    async prepare(messages) {
      await pool.query(`TRUNCATE ${table}`);
      if (mode.kind === 'polling') await insert(pool, table, messages, 'infinity');
      await pool.query(`VACUUM ANALYZE ${table}`);
    },
    async release(messages) {
      if (mode.kind === 'polling') {
        await pool.query(`UPDATE ${table} SET locked_until = to_timestamp(0)`);
      } else {
        await insert(pool, table, messages, null);
      }
    },
    warnings: () => log.warnings(),
    async unprocessed() {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM ${table} WHERE processed_at IS NULL`,
      );
      return Number(rows[0].n);
    },
    async close() {
      await shutdown();
      await pool.end();
    },
  };
}

/** The peer's listener as its README configures it, the protections an outbox can do without off. */
function listen(
  api: PgPeerApi,
  databaseUrl: string,
  mode: PgPeerMode,
  handler: { handle(message: StoredMessage): Promise<void> },
  logger: object,
): [() => Promise<void>] {
  const base = {
    outboxOrInbox: 'outbox',
    // The handler's pool: 20 connections, as the relay's.
    dbHandlerConfig: { connectionString: databaseUrl, max: 20 },
    dbListenerConfig: { connectionString: databaseUrl },
  };
  const settings = {
    dbSchema: TABLE.schema,
    dbTable: TABLE.table,
    enableMaxAttemptsProtection: false,
    enablePoisonousMessageProtection: false,
    messageCleanupIntervalInMs: 0,
  };
  // An outbox must not give up on a message: the default strategy abandons one after 5
  // failed attempts, and under load a send's own row lock (FOR NO KEY UPDATE NOWAIT) fails
  // while a concurrent poll holds it, so the first runs lost messages that way.
  const strategies = { messageRetryStrategy: () => true };
  if (mode.kind === 'polling') {
    return api.initializePollingMessageListener(
      {
        ...base,
        settings: {
          ...settings,
          nextMessagesFunctionName: 'next_outbox_messages',
          nextMessagesBatchSize: mode.batchSize,
          nextMessagesPollingIntervalInMs: mode.pollingIntervalMs,
        },
      },
      handler,
      logger,
      strategies,
    );
  }
  return api.initializeReplicationMessageListener(
    {
      ...base,
      settings: {
        ...settings,
        dbPublication: NAMES.publication,
        dbReplicationSlot: NAMES.replicationSlot,
      },
    },
    handler,
    logger,
    // Messages of one segment (aggregate) in order, segments in parallel: the relay's promise.
    {
      ...strategies,
      concurrencyStrategy: api.createReplicationSegmentMutexConcurrencyController(),
    },
  );
}

/**
 * Inserts the messages in one transaction, 1,000 per statement, each with a new id, its
 * aggregate id as its segment, and `lockedUntil` (NULL: the table's default, unlocked).
 */
async function insert(
  pool: Pool,
  table: string,
  messages: PgPeerMessage[],
  lockedUntil: string | null,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (let i = 0; i < messages.length; i += 1_000) {
      await client.query(
        `INSERT INTO ${table} (id, aggregate_type, aggregate_id, message_type, segment,
           payload, metadata, locked_until)
         SELECT gen_random_uuid(), m.aggregate_type, m.aggregate_id, m.message_type,
           m.aggregate_id, m.payload, m.metadata, COALESCE($2::timestamptz, to_timestamp(0))
         FROM jsonb_to_recordset($1::jsonb) AS m(aggregate_type text, aggregate_id text,
           message_type text, payload jsonb, metadata jsonb)`,
        [
          JSON.stringify(
            messages.slice(i, i + 1_000).map((m) => ({
              aggregate_type: m.aggregateType,
              aggregate_id: m.aggregateId,
              message_type: m.messageType,
              payload: m.payload,
              metadata: m.metadata,
            })),
          ),
          lockedUntil,
        ],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
