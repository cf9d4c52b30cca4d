import { Client, ClientConfig, Notification } from 'pg';
import type { DataSource } from 'typeorm';
import { backoffDelay, BackoffPolicy } from '../backoff';
import type { NotificationListener, NotificationOptions } from '../sql-dialect';

const RECONNECT: BackoffPolicy = { baseDelayMs: 100, maxDelayMs: 5_000 };

/**
 * A session of its own, outside the DataSource's pool, that LISTENs on one channel: it calls
 * `onNotify` for each notification, and once after every (re)connect, since a NOTIFY sent
 * while it was away is lost and the caller must look for itself. A lost session (a failover,
 * pg_terminate_backend, a cut network) is opened again with backoff, without end.
 */
export class PostgresNotificationListener implements NotificationListener {
  private client?: Client;
  /** Sessions already given up: a lost session reports once, whatever it emits after. */
  private readonly lostClients = new WeakSet<Client>();
  private stopped = false;
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private connecting?: Promise<void>;

  constructor(
    private readonly config: ClientConfig,
    private readonly channel: string,
    private readonly onNotify: () => void,
    private readonly options: NotificationOptions = {},
  ) {}

  /** Listens with the connection settings of `dataSource`'s pool (URL, TLS, timeouts). */
  static on(
    dataSource: DataSource,
    channel: string,
    onNotify: () => void,
    options?: NotificationOptions,
  ): PostgresNotificationListener {
    const pool = (dataSource.driver as unknown as { master?: { options: ClientConfig } }).master;
    if (!pool) throw new Error('LISTEN needs an initialized PostgreSQL DataSource');
    return new PostgresNotificationListener(pool.options, channel, onNotify, options);
  }

  /** Connects in the background; resolves once the first LISTEN is in place (or failed). */
  start(): Promise<void> {
    this.stopped = false;
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    if (client) this.lostClients.add(client);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the LISTEN session ended')));
    client.on('notification', (message: Notification) => {
      if (message.channel === this.channel) this.onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${escapeIdentifier(this.channel)}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.failures > 0) this.options.logger?.log?.(`LISTEN ${this.channel}: listening again`);
    this.failures = 0;
    // Whatever was notified before this session listened is not heard: look once.
    this.onNotify();
  }

  private lost(client: Client, error: unknown): void {
    if (this.lostClients.has(client)) return;
    this.lostClients.add(client);
    client.end().catch(() => undefined);
    if (this.client === client) this.client = undefined;
    if (this.stopped) return;
    const delayMs = backoffDelay(RECONNECT, this.failures++);
    this.options.logger?.warn?.(
      `LISTEN ${this.channel} lost (${String(error)}); listening again in ${delayMs} ms`,
    );
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, delayMs);
  }
}

/** A channel name as a quoted identifier (LISTEN takes no parameter). */
function escapeIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
