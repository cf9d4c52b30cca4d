/**
 * START TRANSACTION travels with the transaction's first statement instead of alone: one round
 * trip less per transaction (each costs more client CPU than a short statement's execution
 * here). Rails' lazy transactions likewise wait for the first query before sending BEGIN, and
 * PostgreSQL's JDBC driver sends BEGIN in the same packet as the first query. A one-time
 * `SET TRANSACTION ISOLATION LEVEL …` before it (TypeORM sends one, alone, for every
 * `transaction(level, …)`) waits and travels with them too: one more round trip less.
 *
 * Nothing observable changes. InnoDB opens a transaction's read view at its first read, not at
 * START TRANSACTION, so a statement sent with the BEGIN sees what it would have seen after a
 * separate one; the SET applies to the next transaction whether it arrives alone or in front of
 * the START; the connection runs its commands in order, so nothing can come in between.
 * The caller still gets one result per call: an OK for the SET and the START TRANSACTION (as
 * before) and the first statement's own result. Needs `multipleStatements` on the pool.
 */

import * as mysql2 from 'mysql2';

/** The part of a mysql2 command this module looks at. */
interface Command {
  sql?: unknown;
  onResult?: (
    error: (Error & { sql?: string }) | null,
    results?: unknown,
    fields?: unknown,
  ) => void;
}

/** The part of a mysql2 pooled connection this module uses. */
export interface DeferrableConnection {
  addCommand(command: Command): unknown;
  query(sql: string, callback: (error: Error | null) => void): unknown;
  release(): void;
}

/**
 * mysql2's class of text-protocol queries (from its exported `createQuery`): the only commands
 * that can carry the BEGIN. A prepared statement's Execute also has `sql` and a callback.
 */
const QUERY = (
  mysql2 as unknown as {
    createQuery(sql: string, values: unknown[], cb: undefined, config: object): object;
  }
).createQuery('SELECT 1', [], undefined, {}).constructor;

/** What a client gets back for a START TRANSACTION the server was not sent (yet). */
function ok() {
  return {
    fieldCount: 0,
    affectedRows: 0,
    insertId: 0,
    info: '',
    serverStatus: 0,
    warningStatus: 0,
    changedRows: 0,
  };
}

type Kind = 'begin' | 'isolation' | 'statement' | 'other';

const BEGINS = new Set(['START TRANSACTION', 'BEGIN']);

/** The one-time isolation level of the next transaction, as TypeORM's `startTransaction` sends it. */
const ISOLATION =
  /^SET TRANSACTION ISOLATION LEVEL (READ UNCOMMITTED|READ COMMITTED|REPEATABLE READ|SERIALIZABLE)$/;

function classify(command: Command): Kind {
  // Only a text query with a callback can carry the BEGIN; streams and prepared statements
  // cannot, and get it sent on its own before them.
  if (!(command instanceof QUERY)) return 'other';
  if (typeof command.sql !== 'string' || typeof command.onResult !== 'function') return 'other';
  // Only a short text can be a BEGIN or a SET: most statements are not even looked at.
  const sql = command.sql;
  if (sql.length > 64) return 'statement';
  const text = sql.trim().toUpperCase();
  if (BEGINS.has(text)) return 'begin';
  return ISOLATION.test(text) ? 'isolation' : 'statement';
}

/**
 * Defers START TRANSACTION on `connection` (a mysql2 pooled connection, as a pool's
 * 'connection' event gives it), and a one-time SET TRANSACTION ISOLATION LEVEL before it, until
 * its next command. A connection released with only those pending (a query runner handed back
 * without commit or rollback) has sent nothing of them: they are dropped, so its next borrower,
 * waiting or not, gets neither an open transaction nor the isolation level meant for another.
 */
export function deferBegin(connection: DeferrableConnection): void {
  const send = connection.addCommand.bind(connection);
  const release = connection.release.bind(connection);
  /** What waits for the next command, in order: a SET TRANSACTION, a START TRANSACTION. */
  let pending: string[] = [];
  let sendingAsIs = false;
  /** Sends `sql` as it is, whatever is pending. */
  const sendAlone = (sql: string) => {
    sendingAsIs = true;
    try {
      // Its failure means a broken connection, which the next command reports.
      connection.query(sql, () => undefined);
    } finally {
      sendingAsIs = false;
    }
  };
  const begun = () => pending.includes('START TRANSACTION');
  connection.addCommand = (command: Command) => {
    if (sendingAsIs) return send(command);
    const kind = classify(command);
    if (kind === 'begin') {
      // A second BEGIN while one is pending would only end an empty transaction.
      if (!begun()) pending.push('START TRANSACTION');
      return answerOk(command);
    }
    if (kind === 'isolation' && !begun()) {
      // A later SET replaces an earlier one, as the server would. After a pending BEGIN it goes
      // as a statement, into the transaction, where the server refuses it as before.
      pending = [(command.sql as string).trim()];
      return answerOk(command);
    }
    if (pending.length === 0) return send(command);
    const prelude = pending;
    pending = [];
    if (kind !== 'other') return send(withPrelude(command, prelude));
    sendAlone(prelude.join(';\n'));
    return send(command);
  };
  connection.release = () => {
    pending = [];
    release();
  };
}

function answerOk(command: Command): Command {
  const done = command.onResult!;
  process.nextTick(() => done(null, ok()));
  return command;
}

/** The command with `prelude` (SET, START TRANSACTION) in front, answering as if sent alone. */
function withPrelude(command: Command, prelude: string[]): Command {
  const done = command.onResult!;
  const sql = command.sql as string;
  command.sql = `${prelude.join(';\n')};\n${sql}`;
  command.onResult = (error, results, fields) => {
    if (error) {
      // mysql2 puts the text it sent on the error; the caller sent only its own statement.
      if (error.sql !== undefined) error.sql = sql;
      return done(error);
    }
    const rest = (results as unknown[]).slice(prelude.length);
    const restFields = Array.isArray(fields) ? fields.slice(prelude.length) : undefined;
    // One result left: the statement was a single one, which mysql2 reports unwrapped.
    if (rest.length === 1) return done(null, rest[0], restFields?.[0]);
    return done(null, rest, restFields);
  };
  return command;
}
