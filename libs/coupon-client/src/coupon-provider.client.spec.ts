import { CouponClientError } from './coupon-client.error';
import { CouponProviderClient } from './coupon-provider.client';

describe('CouponProviderClient options', () => {
  it.each([
    [{ baseUrl: 'not a url' }],
    [{ baseUrl: 'ftp://host' }],
    [{ baseUrl: 'http://host', defaultTimeoutMs: 0 }],
    [{ baseUrl: 'http://host', defaultTimeoutMs: 1.5 }],
  ])('refuses %j at construction', (options) => {
    expect(() => new CouponProviderClient(options)).toThrow(CouponClientError);
  });

  it('reports a refused connection as an unknown outcome, never as a throw', async () => {
    const client = new CouponProviderClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(
      client.grant({ idempotencyKey: 'k', userId: 'u', orderId: '1', value: 1, currency: 'EUR' }),
    ).resolves.toMatchObject({ outcome: 'unknown', cause: 'network' });
  });
});
