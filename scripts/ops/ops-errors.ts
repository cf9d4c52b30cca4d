/** Exit codes of `npm run ops`. */
export const EXIT = {
  ok: 0,
  /** The service refused or failed, or the operator answered no. */
  failed: 1,
  /** The command line is wrong (sysexits EX_USAGE). */
  usage: 64,
} as const;

/** A command line the CLI cannot run; the message says what is wrong. */
export class UsageError extends Error {
  readonly code = 'USAGE' as const;
}

/**
 * An option value commander should reject with its own message ("option '--limit <n>' argument
 * 'x' is invalid. …"). Commander recognises it by `code`; its class lives in the copy of
 * commander that nest-commander bundles, so it is not imported.
 */
export function invalidArgument(message: string): Error {
  return Object.assign(new Error(message), { code: 'commander.invalidArgument' });
}

/** True for commander's own errors (help shown, unknown option, missing value…). */
export function isCommanderError(error: unknown): error is Error & { exitCode: number } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('commander.');
}
