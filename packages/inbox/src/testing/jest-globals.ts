import type * as JestGlobals from '@jest/globals';

/**
 * Jest's globals, loaded when a contract suite is declared rather than when the entry point is
 * imported: `@jest/globals` throws when loaded outside a Jest test, and a script or another
 * test runner may take only the harness, the in-memory twin or InboxHooksModule from this entry
 * point (the consumer benchmark does). A copy of the outbox's: neither package imports the other.
 */
export function jestGlobals(): typeof JestGlobals {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@jest/globals') as typeof JestGlobals;
}
