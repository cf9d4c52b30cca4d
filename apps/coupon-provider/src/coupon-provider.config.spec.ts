import { validateEnv } from '@app/config';
import { CouponProviderConfig } from './coupon-provider.config';

describe('CouponProviderConfig', () => {
  const base = {
    DATABASE_URL: 'mysql://root@127.0.0.1:3306/coupon_provider',
    OPS_API_TOKEN: 'x'.repeat(24),
  };

  it('needs only its database and operator token: no Kafka variables, port 3003 by default', () => {
    const config = validateEnv(CouponProviderConfig, base);
    expect(config.COUPON_PROVIDER_PORT).toBe(3003);
    expect(config).not.toHaveProperty('KAFKA_BROKERS');
  });

  it('has no fault switch unless COUPON_FAULTS_ENABLED=true', () => {
    expect(validateEnv(CouponProviderConfig, base).COUPON_FAULTS_ENABLED).toBe(false);
    const enabled = validateEnv(CouponProviderConfig, { ...base, COUPON_FAULTS_ENABLED: 'true' });
    expect(enabled.COUPON_FAULTS_ENABLED).toBe(true);
    expect(() =>
      validateEnv(CouponProviderConfig, { ...base, COUPON_FAULTS_ENABLED: 'yes' }),
    ).toThrow(/COUPON_FAULTS_ENABLED/);
  });

  it('still requires DATABASE_URL', () => {
    expect(() => validateEnv(CouponProviderConfig, {})).toThrow(/DATABASE_URL/);
  });
});
