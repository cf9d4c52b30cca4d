import type { SqlDialect, SqlEngine } from './sql-dialect';

const loaded = new Map<SqlEngine, SqlDialect>();

/**
 * Each dialect registers itself when its module loads (through its subpath, or through
 * `sqlDialectOf`'s own require of it). An ES module app imports its engine's subpath for its
 * DataSource options, so its dialect is here before any `sqlDialectOf` asks: no `require()` of
 * an ES module, which Jest's ES module mode cannot do.
 */
export function registerDialect(dialect: SqlDialect): void {
  loaded.set(dialect.engine, dialect);
}

/** The dialect of `engine`, if its module has loaded. */
export function loadedDialect(engine: SqlEngine): SqlDialect | undefined {
  return loaded.get(engine);
}
