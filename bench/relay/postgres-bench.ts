import {
  createPostgresTestDatabase,
  openOutboxDatabase,
  TestEnvironment,
} from '@outbox-inbox/test-kit';
import { Bench, EVENTS, writeEvents } from './relay-bench-kit';

/** A relay bench on PostgreSQL, and how to remove its database. */
export interface PostgresBench {
  bench: Bench;
  close(): Promise<void>;
}

/**
 * The relay bench's setting on PostgreSQL: a database of its own on the shared server
 * (POSTGRES_URL or the local one; `server` names another) with t_outbox migrated, a pool of 20
 * as on MariaDB, a topic of 6 partitions on the run's broker, and `events` rows (the same
 * EVENTS as on MariaDB unless said otherwise), written by OutboxWriter.
 */
export async function openPostgresBench(
  env: TestEnvironment,
  label: string,
  { server, events = EVENTS }: { server?: string; events?: number } = {},
): Promise<PostgresBench> {
  const database = await createPostgresTestDatabase(label, server);
  const dataSource = await openOutboxDatabase(database.url, 20);
  try {
    const topic = await env.createTopic(label.replace(/_/g, '.'), 6);
    const [firstId, lastId] = await writeEvents(dataSource, events);
    return {
      bench: { env, dataSource, topic, firstId, lastId, events },
      async close() {
        await dataSource.destroy();
        await database.drop();
      },
    };
  } catch (error) {
    await dataSource.destroy();
    await database.drop();
    throw error;
  }
}
