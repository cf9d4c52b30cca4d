import { engineOf } from '../dialect-of';
import type { SqlEngine } from '../sql-dialect';
import { Queryable } from '../statements';

/** The longest area the audit table keeps (`area VARCHAR(16)`). */
const AREA_MAX_LENGTH = 16;

/** Who asked for an operator action, and why: what the audit log records beside the action. */
export interface OperatorActionAudit {
  /** The name of the operator token that called (OPS_API_TOKENS), never what a caller typed. */
  who: string;
  /** Why, as the operator gave it. */
  reason?: string | null;
}

/** One operator action, as the audit log keeps it. */
export interface OperatorAuditEntry {
  /**
   * Where the action was taken, as the caller names it (the outbox and the inbox give their
   * own names): 1 to 16 characters. readOperatorAudit reads one area back.
   */
  area: string;
  /** What was done, e.g. `outbox.requeue`, `inbox.replay`, `inbox.gap-skip`. */
  action: string;
  /** What it was asked for: the filter or selector, as JSON-serialisable data. */
  target: unknown;
  /** How many rows or messages it changed. */
  count: number;
  /** Why, as the operator gave it; null when the action asks for none. */
  reason: string | null;
  /** The name of the operator token that called (OPS_API_TOKENS), never what a caller typed. */
  who: string;
}

/** An audit entry read back, with when it was recorded. */
export interface OperatorAuditRecord extends OperatorAuditEntry {
  id: string;
  at: string;
}

/**
 * Records an operator action in `t_operator_audit`. Pass the action's own transaction manager
 * when the action changes the database, so the action and its record commit or roll back
 * together.
 */
export async function recordOperatorAction(
  manager: Queryable,
  entry: OperatorAuditEntry,
  at = new Date(),
): Promise<void> {
  checkArea(entry.area);
  await manager.query(
    `INSERT INTO t_operator_audit (area, action, target, affected, reason, who, at)
     VALUES (${placeholders(manager, 7).join(', ')})`,
    [
      entry.area,
      entry.action,
      JSON.stringify(entry.target ?? null).slice(0, 4000),
      entry.count,
      entry.reason?.slice(0, 500) ?? null,
      entry.who.slice(0, 64),
      at,
    ],
  );
}

/** The latest `limit` actions of an area, newest first. */
export async function readOperatorAudit(
  queryable: Queryable,
  area: string,
  limit = 100,
): Promise<OperatorAuditRecord[]> {
  checkArea(area);
  const [areaValue, limitValue] = placeholders(queryable, 2);
  const rows = (await queryable.query(
    `SELECT id, area, action, target, affected, reason, who, at FROM t_operator_audit
     WHERE area = ${areaValue} ORDER BY id DESC LIMIT ${limitValue}`,
    [area, limit],
  )) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: String(r.id),
    area: String(r.area),
    action: String(r.action),
    target: parseTarget(String(r.target)),
    count: Number(r.affected),
    reason: r.reason === null ? null : String(r.reason),
    who: String(r.who),
    at: new Date(r.at as string | Date).toISOString(),
  }));
}

/**
 * `count` placeholders in the words of the engine behind `queryable` (a DataSource, or an
 * EntityManager or QueryRunner, which name theirs `connection`): mysql2's `?`, or
 * node-postgres's `$1`, `$2`, …; MySQL's for anything else, as before PostgreSQL was supported.
 */
function placeholders(queryable: Queryable, count: number): string[] {
  const owner = queryable as {
    connection?: { options?: { type?: string } };
    options?: { type?: string };
  };
  const type = owner.connection?.options?.type ?? owner.options?.type;
  const engine: SqlEngine = type === undefined ? 'mysql' : engineOf(type);
  return Array.from({ length: count }, (_, i) => (engine === 'postgres' ? `$${i + 1}` : '?'));
}

/** An area the table cannot keep would be cut or refused by the engine: say so first. */
function checkArea(area: string): void {
  if (area.length === 0 || area.length > AREA_MAX_LENGTH) {
    throw new RangeError(
      `operator audit: area must be 1 to ${AREA_MAX_LENGTH} characters, got ${JSON.stringify(area)}`,
    );
  }
}

function parseTarget(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // cut at 4,000 characters
  }
}
