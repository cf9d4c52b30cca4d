import { resolveService } from './service-target';

describe('resolveService', () => {
  it('resolves a name to the stack default port on loopback', () => {
    expect(resolveService('order', {})).toEqual({
      url: 'http://127.0.0.1:3000',
      service: 'order-service',
      parts: ['outbox'],
    });
    expect(resolveService('fulfillment', {})).toMatchObject({
      url: 'http://127.0.0.1:3001',
      parts: ['outbox', 'inbox'],
    });
    expect(resolveService('accounting-service', {})).toMatchObject({
      url: 'http://127.0.0.1:3002',
      parts: ['inbox'],
    });
    expect(resolveService('coupon', {})).toMatchObject({ url: 'http://127.0.0.1:3003', parts: [] });
  });

  it('follows the port and URL variables the stack and docker compose set', () => {
    expect(resolveService('accounting', { ACCOUNTING_SERVICE_PORT: '4002' })?.url).toBe(
      'http://127.0.0.1:4002',
    );
    expect(
      resolveService('coupon', {
        COUPON_PROVIDER_URL: 'http://coupons:3003/',
        COUPON_PROVIDER_PORT: '9',
      })?.url,
    ).toBe('http://coupons:3003');
  });

  it('takes a URL as it is, without knowing its parts', () => {
    expect(resolveService('http://10.0.0.7:3001/', {})).toEqual({ url: 'http://10.0.0.7:3001' });
  });

  it('knows nothing else', () => {
    expect(resolveService('billing', {})).toBeUndefined();
    expect(resolveService('ftp://x', {})).toBeUndefined();
  });
});
