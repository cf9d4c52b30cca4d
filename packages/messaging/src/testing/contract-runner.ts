/** The matchers the contract suites use, as Jest's and Vitest's `expect` both have them. */
export interface ContractMatchers<R> {
  toBe(expected: unknown): R;
  toEqual(expected: unknown): R;
  toMatchObject(expected: object): R;
  toHaveLength(expected: number): R;
  toBeNull(): R;
  toBeUndefined(): R;
  toBeDefined(): R;
  toBeInstanceOf(expected: unknown): R;
  toBeGreaterThan(expected: number | bigint): R;
  toBeLessThanOrEqual(expected: number | bigint): R;
  toThrow(expected?: unknown): R;
}

/** A test case function: `it(name, fn)`, with `it.skip` for a case a fixture cannot run. */
export interface ContractIt {
  (name: string, fn: () => Promise<unknown> | void, timeout?: number): void;
  skip(name: string, fn: () => Promise<unknown> | void, timeout?: number): void;
}

/**
 * The test functions a contract suite declares its cases with: Jest's, Vitest's, or those of
 * any runner of the same shape (Vitest exports all five by these names).
 */
export interface ContractRunner {
  describe(name: string, body: () => void): void;
  it: ContractIt;
  beforeEach(fn: () => Promise<unknown> | void): void;
  afterEach(fn: () => Promise<unknown> | void): void;
  expect(actual: unknown): ContractMatchers<void> & {
    rejects: ContractMatchers<Promise<void>>;
  };
}

const NAMES = ['describe', 'it', 'expect', 'beforeEach', 'afterEach'] as const;

/**
 * The test runner's global functions, as Jest installs them (and Vitest with `globals: true`);
 * read when a suite is declared, so the `/testing` entry points load without any test runner.
 * Throws, saying what to pass instead, when the runner installs none.
 */
export function runnerGlobals(): ContractRunner {
  const scope = globalThis as Record<string, unknown>;
  const missing = NAMES.filter((name) => typeof scope[name] !== 'function');
  if (missing.length > 0)
    throw new Error(
      `no test runner globals (${missing.join(', ')}): pass { describe, it, expect, beforeEach, afterEach } of your runner (Vitest exports them) as the suite's last argument, or turn the runner's globals on`,
    );
  return Object.fromEntries(NAMES.map((name) => [name, scope[name]])) as unknown as ContractRunner;
}
