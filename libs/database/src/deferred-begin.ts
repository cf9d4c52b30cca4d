/**
 * START TRANSACTION travels with the transaction's first statement instead of alone: one round
 * trip less per transaction (each costs more client CPU than a short statement's execution
 * here). Rails' lazy transactions likewise wait for the first query before sending BEGIN, and
 * PostgreSQL's JDBC driver sends BEGIN in the same packet as the first query.
 *
 * Nothing observable changes. InnoDB opens a transaction's read view at its first read, not at
 * START TRANSACTION, so a statement sent with the BEGIN sees what it would have seen after a
 * separate one; the connection runs its commands in order, so nothing can come in between.
 * The caller still gets one result per call: an OK for the START TRANSACTION (as before) and
 * the first statement's own result. Needs `multipleStatements` on the pool.
 */

/** The part of a mysql2 command this module looks at. */
interface Command {
  sql?: unknown;
  onResult?: (error: Error | null, results?: unknown, fields?: unknown) => void;
}

/** The part of a mysql2 connection this module uses. */
export interface DeferrableConnection {
  addCommand(command: Command): unknown;
  query(sql: string, callback: (error: Error | null) => void): unknown;
}

/** What a client gets back for a statement the server was not sent. */
const OK = Object.freeze({
  fieldCount: 0,
  affectedRows: 0,
  insertId: 0,
  info: '',
  serverStatus: 0,
  warningStatus: 0,
  changedRows: 0,
});

type Kind = 'begin' | 'statement' | 'other';

const BEGINS = new Set(['START TRANSACTION', 'BEGIN']);

function classify(command: Command): Kind {
  // Only a plain query with a callback can carry the BEGIN; streams and prepared statements
  // cannot, and get it sent on its own before them.
  if (typeof command.sql !== 'string' || typeof command.onResult !== 'function') return 'other';
  // Only a short text can be a BEGIN: most statements are not even looked at.
  const sql = command.sql;
  return sql.length <= 32 && BEGINS.has(sql.trim().toUpperCase()) ? 'begin' : 'statement';
}

/**
 * Defers START TRANSACTION on `connection` (a mysql2 connection, as a pool's 'connection'
 * event gives it) until its next command. Returns a function that forgets a pending BEGIN,
 * for the pool's 'release' event: a connection handed back with a BEGIN and nothing after it
 * then lends out no open transaction.
 */
export function deferBegin(connection: DeferrableConnection): () => void {
  const send = connection.addCommand.bind(connection);
  let pending = false;
  let sendingBegin = false;
  connection.addCommand = (command: Command) => {
    if (sendingBegin) return send(command);
    const kind = classify(command);
    if (kind === 'begin') {
      // A second BEGIN while one is pending would only end an empty transaction.
      pending = true;
      return answerOk(command);
    }
    if (!pending) return send(command);
    pending = false;
    if (kind === 'statement') return send(withBegin(command));
    sendingBegin = true;
    try {
      connection.query('START TRANSACTION', () => undefined);
    } finally {
      sendingBegin = false;
    }
    return send(command);
  };
  return () => {
    pending = false;
  };
}

function answerOk(command: Command): Command {
  const done = command.onResult!;
  process.nextTick(() => done(null, OK));
  return command;
}

/** The command with START TRANSACTION in front, answering as if it had been sent alone. */
function withBegin(command: Command): Command {
  const done = command.onResult!;
  command.sql = `START TRANSACTION;\n${command.sql as string}`;
  command.onResult = (error, results, fields) => {
    if (error) return done(error);
    const rest = (results as unknown[]).slice(1);
    const restFields = Array.isArray(fields) ? fields.slice(1) : undefined;
    // One result left: the statement was a single one, which mysql2 reports unwrapped.
    if (rest.length === 1) return done(null, rest[0], restFields?.[0]);
    return done(null, rest, restFields);
  };
  return command;
}
