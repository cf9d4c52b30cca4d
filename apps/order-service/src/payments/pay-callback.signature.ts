import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers the payment provider signs its callbacks with. */
export const PayCallbackHeader = {
  timestamp: 'x-pay-timestamp',
  signature: 'x-pay-signature',
} as const;

/** How far the callback's timestamp may be from our clock, either way, in seconds. */
export const PAY_CALLBACK_TOLERANCE_SECONDS = 300;

/**
 * Why a callback's signature was not accepted; every reason is answered with 401. Only
 * STALE_TIMESTAMP comes with a signature that verified: the provider sent it, too late.
 */
export type SignatureRejection =
  | 'MISSING_TIMESTAMP'
  | 'MALFORMED_TIMESTAMP'
  | 'STALE_TIMESTAMP'
  | 'MISSING_SIGNATURE'
  | 'BAD_SIGNATURE';

/** What verifyPayCallbackSignature needs; headers as received (possibly absent or repeated). */
export interface SignedCallback {
  /**
   * The secrets in force: PAY_CALLBACK_SECRET, and during a rotation PAY_CALLBACK_SECRET_PREVIOUS
   * too. A signature made with any of them verifies; one made with a secret no longer listed
   * is a BAD_SIGNATURE like any other.
   */
  secrets: readonly string[];
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  rawBody: Buffer;
  /** Our clock, unix seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

/** Hex HMAC-SHA256 over `<timestamp>.<raw body bytes>`: what the provider sends. */
export function signPayCallback(secret: string, timestamp: string, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** What verifyPayCallbackSignature found. */
export type SignatureVerdict =
  /** Signed by the provider within the window; `signedAt` is its timestamp, unix seconds. */
  | { ok: true; signedAt: number }
  /** Signed by the provider, but outside the window: a late copy, still refused. */
  | { ok: false; reason: 'STALE_TIMESTAMP'; signedAt: number }
  | { ok: false; reason: Exclude<SignatureRejection, 'STALE_TIMESTAMP'> };

/**
 * Checks the HMAC over the exact bytes received (with each secret in force), then the timestamp window, before anything
 * parses them. The HMAC comes first so that a late callback is known to be the provider's
 * (its order can show it); a bad signature is tied to nothing. The comparison is constant-time
 * (after a length check, which reveals only the length of a hex digest, which is public).
 */
export function verifyPayCallbackSignature(input: SignedCallback): SignatureVerdict {
  const timestamp = single(input.timestamp);
  if (timestamp === undefined) return { ok: false, reason: 'MISSING_TIMESTAMP' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'MALFORMED_TIMESTAMP' };
  const signature = single(input.signature);
  if (signature === undefined) return { ok: false, reason: 'MISSING_SIGNATURE' };
  const received = Buffer.from(signature.toLowerCase(), 'utf8');
  // Every secret is compared, so the time taken does not tell which one matched.
  let verified = false;
  for (const secret of input.secrets) {
    const expected = Buffer.from(signPayCallback(secret, timestamp, input.rawBody), 'utf8');
    const equal = received.length === expected.length && timingSafeEqual(received, expected);
    verified = equal || verified;
  }
  if (!verified) return { ok: false, reason: 'BAD_SIGNATURE' };
  const signedAt = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? PAY_CALLBACK_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - signedAt) > tolerance) {
    return { ok: false, reason: 'STALE_TIMESTAMP', signedAt };
  }
  return { ok: true, signedAt };
}

function single(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
  return one === undefined || one === '' ? undefined : one;
}
