/**
 * The base of the packages' typed errors: a stable `code` from the package's closed union, a
 * message for people, and the underlying `cause`. Callers branch on `code`, never on the text.
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
