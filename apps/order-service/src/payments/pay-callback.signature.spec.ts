import { createHmac } from 'node:crypto';
import { SECRET_HEADERS } from '@app/observability';
import {
  PayCallbackHeader,
  signPayCallback,
  verifyPayCallbackSignature,
} from './pay-callback.signature';

const secret = 'a-secret-of-sixteen+';
const body = Buffer.from('{"notifyId":"n-1","amount":1999}');
const now = 1_780_000_000;

function verify(overrides: Partial<Parameters<typeof verifyPayCallbackSignature>[0]> = {}) {
  const timestamp = String(now);
  return verifyPayCallbackSignature({
    secrets: [secret],
    timestamp,
    signature: signPayCallback(secret, timestamp, body),
    rawBody: body,
    nowSeconds: now,
    ...overrides,
  });
}

describe('pay callback signature', () => {
  it('is the hex HMAC-SHA256 of "<timestamp>.<raw body>" with the shared secret', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body.toString()}`).digest('hex');
    expect(signPayCallback(secret, String(now), body)).toBe(expected);
    expect(verify()).toEqual({ ok: true, signedAt: now });
  });

  it('accepts an upper-case hex signature', () => {
    const signature = signPayCallback(secret, String(now), body).toUpperCase();
    expect(verify({ signature })).toEqual({ ok: true, signedAt: now });
  });

  it('accepts timestamps up to 300 s away either way and rejects 301 s', () => {
    for (const skew of [-300, 300]) {
      const timestamp = String(now + skew);
      const signature = signPayCallback(secret, timestamp, body);
      expect(verify({ timestamp, signature })).toEqual({ ok: true, signedAt: now + skew });
    }
    for (const skew of [-301, 301]) {
      const timestamp = String(now + skew);
      const signature = signPayCallback(secret, timestamp, body);
      expect(verify({ timestamp, signature })).toEqual({
        ok: false,
        reason: 'STALE_TIMESTAMP',
        signedAt: now + skew,
      });
    }
  });

  it('calls a late copy with a bad signature a bad signature: only a verified one is late', () => {
    const timestamp = String(now - 600);
    const signature = signPayCallback('another-secret-of-16', timestamp, body);
    expect(verify({ timestamp, signature })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('rejects a body changed by one byte', () => {
    const changed = Buffer.from(body);
    changed[changed.length - 2] ^= 1;
    expect(verify({ rawBody: changed })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
  });

  it('rejects a signature made with another secret, for another timestamp, or truncated', () => {
    const otherSecret = signPayCallback('another-secret-of-16', String(now), body);
    const otherTime = signPayCallback(secret, String(now - 1), body);
    const truncated = signPayCallback(secret, String(now), body).slice(0, 63);
    for (const signature of [otherSecret, otherTime, truncated, 'zz', 'é'.repeat(64)]) {
      expect(verify({ signature })).toEqual({ ok: false, reason: 'BAD_SIGNATURE' });
    }
  });

  it('during a rotation, accepts a signature made with the current or the previous secret', () => {
    const previous = 'the-previous-secret-16';
    const byPrevious = signPayCallback(previous, String(now), body);
    const byCurrent = signPayCallback(secret, String(now), body);
    for (const signature of [byPrevious, byCurrent]) {
      expect(verify({ secrets: [secret, previous], signature })).toEqual({
        ok: true,
        signedAt: now,
      });
    }
    expect(verify({ secrets: [secret], signature: byPrevious })).toEqual({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
  });

  it('names missing or malformed headers', () => {
    expect(verify({ timestamp: undefined })).toEqual({ ok: false, reason: 'MISSING_TIMESTAMP' });
    expect(verify({ timestamp: '' })).toEqual({ ok: false, reason: 'MISSING_TIMESTAMP' });
    expect(verify({ timestamp: '12.5' })).toEqual({ ok: false, reason: 'MALFORMED_TIMESTAMP' });
    expect(verify({ timestamp: [String(now), String(now)] })).toEqual({
      ok: false,
      reason: 'MISSING_TIMESTAMP',
    });
    expect(verify({ signature: undefined })).toEqual({ ok: false, reason: 'MISSING_SIGNATURE' });
  });
});

describe('the pay callback signature header', () => {
  it('is one of the headers every logger redacts', () => {
    expect(SECRET_HEADERS).toContain(PayCallbackHeader.signature);
  });
});
