import { createHash, timingSafeEqual } from 'node:crypto';

/** The shortest OPS_API_TOKEN a service accepts. */
export const MIN_OPERATOR_TOKEN_LENGTH = 24;

/**
 * The operator API's bearer token, held as its SHA-256 digest. A presented token is hashed and
 * compared with timingSafeEqual: both digests have the same length whatever was sent, so the
 * time taken says nothing about how much of the token was right.
 */
export class OperatorToken {
  private readonly digest: Buffer;

  constructor(token: string) {
    if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
      throw new Error(
        `the operator API token must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters long`,
      );
    }
    this.digest = sha256(token);
  }

  matches(presented: string): boolean {
    return timingSafeEqual(sha256(presented), this.digest);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
