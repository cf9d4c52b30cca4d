import { Connection, createConnection } from 'mysql2/promise';

/** `database.table` → `rows:checksum` for every table of the databases given. */
export type DatabaseSnapshot = Record<string, string>;

/**
 * Reads the row count and CHECKSUM TABLE of every table of some databases, over one connection
 * per database kept open between reads, so a test can compare the data before and after a
 * request in a few milliseconds.
 */
export class DatabaseSnapshots {
  private constructor(private readonly connections: Map<string, Connection>) {}

  static async open(serverUrl: string, databases: string[]): Promise<DatabaseSnapshots> {
    const connections = new Map<string, Connection>();
    for (const database of databases) {
      connections.set(database, await createConnection({ uri: `${serverUrl}/${database}` }));
    }
    return new DatabaseSnapshots(connections);
  }

  async read(): Promise<DatabaseSnapshot> {
    const snapshot: DatabaseSnapshot = {};
    for (const [database, connection] of this.connections) {
      const [tables] = (await connection.query('SHOW TABLES')) as [
        Array<Record<string, string>>,
        unknown,
      ];
      const names = tables.map((row) => Object.values(row)[0]);
      if (names.length === 0) continue;
      const list = names.map((name) => `\`${name}\``).join(', ');
      const [sums] = (await connection.query(`CHECKSUM TABLE ${list}`)) as [
        Array<{ Table: string; Checksum: number | string | null }>,
        unknown,
      ];
      const counts = names.map((name) => `(SELECT COUNT(*) FROM \`${name}\`) AS \`${name}\``);
      const [[row]] = (await connection.query(`SELECT ${counts.join(', ')}`)) as [
        Array<Record<string, number | string>>,
        unknown,
      ];
      for (const sum of sums) {
        const table = sum.Table.slice(sum.Table.indexOf('.') + 1);
        snapshot[`${database}.${table}`] = `${row[table]}:${sum.Checksum}`;
      }
    }
    return snapshot;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.end()));
  }
}
