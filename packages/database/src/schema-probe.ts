import type { DataSource } from 'typeorm';
import { DeploymentFault, deploymentFaultOf } from './deployment-fault';

/**
 * A component's schema check, bound to its DataSource: what a health check asks without
 * knowing the component's tables (OutboxModule and InboxModule provide one each).
 */
export interface SchemaProbe {
  /** The deployment faults now; empty when nothing is missing. Rejects when the database does not answer. */
  faults(): Promise<DeploymentFault[]>;
}

/** A table a component needs, the columns it reads and writes, and the writes it makes. */
export interface RequiredTable {
  table: string;
  /** Every column of the table; the UPDATE check sets the first to itself. */
  columns: readonly string[];
  /** The privileges it needs besides SELECT. */
  writes: ReadonlyArray<'INSERT' | 'UPDATE' | 'DELETE'>;
}

/**
 * The deployment faults of `dataSource` for `tables`: each table and column exists and each
 * privilege holds, or the fault that says which does not; empty when all is in place. Each
 * check is a statement that touches no row (`WHERE 1 = 0`), asked as the service's own user,
 * so it sees exactly what the service's statements would: table and column grants, roles,
 * `search_path`, on either engine alike. Any other failure (the database is down) rejects.
 */
export async function probeSchema(
  dataSource: Pick<DataSource, 'query'>,
  tables: readonly RequiredTable[],
): Promise<DeploymentFault[]> {
  const faults: DeploymentFault[] = [];
  for (const required of tables) {
    for (const { privilege, sql } of probeStatements(required)) {
      const fault = await faultOf(dataSource, sql);
      if (!fault) continue;
      // PostgreSQL names the table and not the privilege: name both, as the check knows them.
      faults.push(
        fault.kind === 'grant' ? { ...fault, subject: `${privilege} on ${required.table}` } : fault,
      );
      // Nothing more to learn about a table that is missing or cannot be read.
      if (privilege === 'SELECT') break;
    }
  }
  return faults;
}

/** One statement per privilege, reading or writing no row. */
function probeStatements({ table, columns, writes }: RequiredTable) {
  const [first] = columns;
  const list = columns.join(', ');
  const byWrite = {
    // Every column: MySQL's strict mode refuses a column left without a default, even for no row.
    INSERT: `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${table} WHERE 1 = 0`,
    UPDATE: `UPDATE ${table} SET ${first} = ${first} WHERE 1 = 0`,
    DELETE: `DELETE FROM ${table} WHERE 1 = 0`,
  };
  return [
    { privilege: 'SELECT', sql: `SELECT ${list} FROM ${table} WHERE 1 = 0` },
    ...writes.map((privilege) => ({ privilege, sql: byWrite[privilege] })),
  ];
}

async function faultOf(
  dataSource: Pick<DataSource, 'query'>,
  sql: string,
): Promise<DeploymentFault | undefined> {
  try {
    await dataSource.query(sql);
    return undefined;
  } catch (error) {
    const fault = deploymentFaultOf(error);
    if (!fault) throw error;
    return fault;
  }
}
