import { CouponProviderClient, GrantRequest } from '@app/coupon-client';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import {
  RunningCouponProvider,
  startCouponProvider,
} from '../../../../test/support/coupon-provider.harness';

describe('coupon-provider through CouponProviderClient', () => {
  let env: TestEnvironment;
  let provider: RunningCouponProvider & { databaseUrl: string };
  let client: CouponProviderClient;
  let seq = 0;

  function grantRequest(overrides: Partial<GrantRequest> = {}): GrantRequest {
    seq++;
    return {
      idempotencyKey: `OrderPaid:${seq}:3`,
      userId: 'u-1',
      orderId: String(seq),
      value: 500,
      currency: 'EUR',
      ...overrides,
    };
  }

  async function grantsOf(key: string): Promise<number | undefined> {
    const stats = await client.stats();
    return stats.perKey.find((k) => k.idempotencyKey === key)?.grants;
  }

  beforeAll(async () => {
    env = await startTestEnvironment();
    provider = await startCouponProvider(env);
    client = new CouponProviderClient({
      baseUrl: provider.baseUrl,
      defaultTimeoutMs: 5_000,
      operatorToken: TEST_OPS_API_TOKEN,
    });
  });

  afterAll(async () => {
    await provider?.close();
    await env?.stop();
  });

  afterEach(async () => {
    await client.setFaults({
      latencyMs: 0,
      errorRate: 0,
      dropReplyRate: 0,
      failNextRequests: 0,
      dropNextReplies: 0,
    });
  });

  it('grants a coupon (201), and the same key with the same params returns it again (200)', async () => {
    const request = grantRequest();
    const first = await client.grant(request);
    expect(first).toMatchObject({
      outcome: 'granted',
      replayed: false,
      coupon: { userId: 'u-1', value: 500, currency: 'EUR', status: 'GRANTED' },
    });
    const again = await client.grant(request);
    expect(again).toEqual({
      outcome: 'granted',
      replayed: true,
      coupon: first.outcome === 'granted' ? first.coupon : undefined,
    });
    expect(await grantsOf(request.idempotencyKey)).toBe(1);
  });

  it('answers conflict (409) to the same key with other params, and changes nothing', async () => {
    const request = grantRequest();
    await client.grant(request);
    const result = await client.grant({ ...request, value: 501 });
    expect(result).toMatchObject({ outcome: 'conflict' });
    // A refused request leaves no trace, not even in the key's request count; a replay counts.
    await client.grant(request);
    const stats = await client.stats();
    expect(stats.perKey.find((k) => k.idempotencyKey === request.idempotencyKey)).toEqual({
      idempotencyKey: request.idempotencyKey,
      grants: 1,
      requests: 2,
    });
  });

  it('gives 20 concurrent requests with one key one coupon', async () => {
    const request = grantRequest();
    const results = await Promise.all(Array.from({ length: 20 }, () => client.grant(request)));
    const codes = results.map((r) => (r.outcome === 'granted' ? r.coupon.couponCode : r.outcome));
    expect(new Set(codes).size).toBe(1);
    expect(codes[0]).toMatch(/^CPN-[0-9A-Z]{12}$/);
    expect(results.filter((r) => r.outcome === 'granted' && !r.replayed)).toHaveLength(1);
    expect(await grantsOf(request.idempotencyKey)).toBe(1);
  });

  it('drop-reply mode: the client sees unknown, the retry gets the same coupon, one grant', async () => {
    await client.setFaults({ dropNextReplies: 1 });
    const request = grantRequest();
    const lost = await client.grant(request);
    expect(lost).toMatchObject({ outcome: 'unknown', cause: 'network' });
    // The grant was committed before the reply was lost.
    expect(await grantsOf(request.idempotencyKey)).toBe(1);

    const retry = await client.grant(request);
    expect(retry).toMatchObject({ outcome: 'granted', replayed: true });
    expect(await grantsOf(request.idempotencyKey)).toBe(1);
    expect((await client.setFaults({})) as object).toMatchObject({ droppedReplies: 1 });
  });

  it('failure mode: 503 is unavailable, nothing is granted, the retry grants once', async () => {
    await client.setFaults({ failNextRequests: 2 });
    const request = grantRequest();
    expect(await client.grant(request)).toMatchObject({ outcome: 'unavailable', status: 503 });
    expect(await client.grant(request)).toMatchObject({ outcome: 'unavailable', status: 503 });
    expect(await grantsOf(request.idempotencyKey)).toBeUndefined();
    expect(await client.grant(request)).toMatchObject({ outcome: 'granted', replayed: false });
    expect(await grantsOf(request.idempotencyKey)).toBe(1);
  });

  it('latency beyond the client timeout: unknown (timeout), and the grant still happened once', async () => {
    await client.setFaults({ latencyMs: 300 });
    const request = grantRequest();
    expect(await client.grant(request, { timeoutMs: 50 })).toMatchObject({
      outcome: 'unknown',
      cause: 'timeout',
    });
    // The provider carries on after the caller gave up: the grant commits without anyone told.
    await waitFor(async () => (await grantsOf(request.idempotencyKey)) === 1);
    await client.setFaults({ latencyMs: 0 });
    const retry = await client.grant(request);
    expect(retry).toMatchObject({ outcome: 'granted', replayed: true });
    expect(await grantsOf(request.idempotencyKey)).toBe(1);
  });

  it('revokes a coupon idempotently; an unknown code is not-found', async () => {
    const granted = await client.grant(grantRequest());
    if (granted.outcome !== 'granted') throw new Error(granted.outcome);
    const first = await client.revoke(granted.coupon.couponCode);
    expect(first).toMatchObject({ outcome: 'revoked', coupon: { status: 'REVOKED' } });
    const second = await client.revoke(granted.coupon.couponCode);
    expect(second).toEqual(first);
    expect(await client.revoke('CPN-NOPE')).toEqual({ outcome: 'not-found' });
  });

  it('rejects a grant without an Idempotency-Key or with unknown fields (400)', async () => {
    const bare = await fetch(`${provider.baseUrl}/coupons/grants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'u', orderId: '1', value: 1, currency: 'EUR' }),
    });
    expect(bare.status).toBe(400);
    const extra = await client.grant({ ...grantRequest(), extra: 1 } as GrantRequest);
    expect(extra).toMatchObject({ outcome: 'rejected', status: 400 });
  });

  it('keeps grants across a restart: the same key after a restart returns the same coupon', async () => {
    const request = grantRequest();
    const before = await client.grant(request);
    await provider.close();
    provider = await startCouponProvider(env, provider.databaseUrl);
    client = new CouponProviderClient({
      baseUrl: provider.baseUrl,
      operatorToken: TEST_OPS_API_TOKEN,
    });
    const after = await client.grant(request);
    expect(after).toMatchObject({ outcome: 'granted', replayed: true });
    expect(after.outcome === 'granted' && after.coupon).toEqual(
      before.outcome === 'granted' && before.coupon,
    );
  });

  it('reports no key with several grants', async () => {
    const stats = await client.stats();
    expect(stats.keysWithSeveralGrants).toBe(0);
    expect(stats.grants).toBe(stats.perKey.reduce((sum, k) => sum + k.grants, 0));
  });
});
