import { Injectable, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { CommonEnv } from './common-env';
import { ConfigError } from './config.error';
import { serviceConfig } from './service-config';

const valid = {
  DATABASE_URL: 'mysql://root:secret@127.0.0.1:3306/order_service',
  KAFKA_BROKERS: 'a:9092,b:9093',
  OPS_API_TOKEN: 'an-operator-token-of-24-chars',
  DB_POOL_SIZE: '7',
};

@Injectable()
class ReadsConfig {
  constructor(
    readonly env: CommonEnv,
    readonly service: ConfigService<CommonEnv, true>,
  ) {}
}

@Module({ providers: [ReadsConfig] })
class FeatureModule {}

describe('serviceConfig (ConfigModule.forRoot with the class-validator rules)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('serves the validated, typed values through ConfigService and the schema token', async () => {
    Object.assign(process.env, valid);
    const app = await Test.createTestingModule({
      imports: [await serviceConfig(CommonEnv), FeatureModule],
    }).compile();
    const reader = app.get(ReadsConfig);
    expect(reader.env).toMatchObject({ DB_POOL_SIZE: 7, KAFKA_BROKERS: ['a:9092', 'b:9093'] });
    expect(reader.service.get('DB_POOL_SIZE', { infer: true })).toBe(7);
    expect(reader.service.get('KAFKA_BROKERS', { infer: true })).toEqual(['a:9092', 'b:9093']);
    expect(reader.service.get('TOPIC_PREFIX', { infer: true })).toBe('trading.');
    await app.close();
  });

  it('takes an env of its own instead of process.env, and leaves process.env alone', async () => {
    const before = { ...process.env };
    const app = await Test.createTestingModule({
      imports: [await serviceConfig(CommonEnv, { ...valid, TOPIC_PREFIX: 'own.' }), FeatureModule],
    }).compile();
    const reader = app.get(ReadsConfig);
    expect(reader.env).toMatchObject({ DB_POOL_SIZE: 7, TOPIC_PREFIX: 'own.' });
    expect(reader.service.get('TOPIC_PREFIX', { infer: true })).toBe('own.');
    expect(reader.service.get('DB_LOCK_WAIT_TIMEOUT_S', { infer: true })).toBeUndefined();
    expect(process.env).toEqual(before);
    await app.close();
    await expect(serviceConfig(CommonEnv, { ...valid, DB_POOL_SIZE: 'many' })).rejects.toThrow(
      /DB_POOL_SIZE/,
    );
  });

  it('rejects a malformed variable with a ConfigError naming it, never its value', async () => {
    Object.assign(process.env, valid, { DB_POOL_SIZE: 'many' });
    const failure = serviceConfig(CommonEnv);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(/DB_POOL_SIZE/);
    await expect(failure).rejects.not.toThrow(/many/);
  });
});
