import type * as JestGlobals from '@jest/globals';

/**
 * Jest's globals, loaded when a contract suite is declared rather than when the entry point is
 * imported: `@jest/globals` throws when loaded outside a Jest test, and a script or another
 * test runner may take only the in-memory twins or the claim SQL from this entry point (the
 * relay benchmark does).
 */
export function jestGlobals(): typeof JestGlobals {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@jest/globals') as typeof JestGlobals;
}
