import { loadConfig } from '@app/config';
import { CouponProviderConfig } from './coupon-provider.config';

describe('CouponProviderConfig', () => {
  it('needs only its database: no Kafka variables, port 3003 by default', () => {
    const config = loadConfig(CouponProviderConfig, {
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/coupon_provider',
    });
    expect(config.COUPON_PROVIDER_PORT).toBe(3003);
    expect(config).not.toHaveProperty('KAFKA_BROKERS');
  });

  it('still requires DATABASE_URL', () => {
    expect(() => loadConfig(CouponProviderConfig, {})).toThrow(/DATABASE_URL/);
  });
});
