import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '@outbox-inbox/test-kit';

/** A PostgreSQL cluster of the bench's own, with wal_level=logical. */
export interface LogicalPostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>, without a database. */
  serverUrl: string;
  stop(): Promise<void>;
}

/** The server's programs: BENCH_PG_BIN, else Debian's PostgreSQL 15. */
const BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * initdb into a temporary directory and pg_ctl start on a free loopback port, with
 * wal_level=logical and otherwise initdb's defaults (those of the shared server: fsync and
 * synchronous_commit on, 128 MB of shared buffers). The shared server's settings are never
 * touched: logical decoding needs a restart with another wal_level, so the bench brings its
 * own. As root, the cluster runs as the `postgres` user (initdb refuses root). `stop()` stops
 * it and removes the directory; so do the process's exit, SIGINT and SIGTERM, should the
 * bench end first.
 * Throws, saying why, when the programs are missing or the cluster does not start.
 */
export async function startLogicalPostgresCluster(): Promise<LogicalPostgresCluster> {
  if (!existsSync(join(BIN, 'initdb')))
    throw new Error(`no initdb in ${BIN} (set BENCH_PG_BIN to PostgreSQL's bin directory)`);
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-logical-'));
  const data = join(dir, 'data');
  const asServer = (program: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, program), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(join(BIN, program), args, { stdio: 'pipe' });
  const stopNow = (mode: 'fast' | 'immediate') => {
    try {
      if (existsSync(join(data, 'postmaster.pid')))
        asServer('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const onExit = () => stopNow('immediate');
  try {
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:', dir]);
    asServer('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    const port = await freeLoopbackPort();
    const options = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c wal_level=logical',
      '-c max_wal_senders=4',
      '-c max_replication_slots=4',
    ].join(' ');
    asServer('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    // Stopped when the bench exits or is interrupted before it could stop the cluster itself.
    const onSignal = (signal: NodeJS.Signals) => {
      onExit();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('exit', onExit);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    return {
      serverUrl: `postgres://postgres@127.0.0.1:${port}`,
      async stop() {
        process.removeListener('exit', onExit);
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
        stopNow('fast');
      },
    };
  } catch (error) {
    const log = join(dir, 'server.log');
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-5).join(' | ') : '';
    stopNow('immediate');
    const output = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    throw new Error(
      `could not start a wal_level=logical cluster: ${(error as Error).message.split('\n')[0]} ${output} ${tail}`.trim(),
      { cause: error },
    );
  }
}
