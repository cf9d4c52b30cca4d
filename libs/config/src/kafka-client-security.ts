import { readFileSync } from 'node:fs';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { KafkaSecurityEnv, KafkaSecuritySettings } from './kafka-security-env';
import { validateEnv } from './validate-env';

/** The part of a kafkajs client's options that secures it. */
export interface KafkaClientSecurity {
  ssl?: KafkaConfig['ssl'];
  sasl?: SASLOptions;
}

/**
 * The kafkajs `ssl` and `sasl` options of validated settings (a service's config, or
 * kafkaSecurityFromEnv's): every Kafka client of every process is secured through this one
 * function. Empty when neither is configured, so a plaintext cluster sees the same client as
 * before. The CA file is read here, at start; a new CA takes a restart.
 */
export function kafkaClientSecurity(settings: KafkaSecuritySettings): KafkaClientSecurity {
  const security: KafkaClientSecurity = {};
  if (settings.KAFKA_SSL === true) {
    security.ssl =
      settings.KAFKA_SSL_CA_FILE === undefined
        ? true
        : { ca: [readFileSync(settings.KAFKA_SSL_CA_FILE, 'utf8')] };
  }
  if (
    settings.KAFKA_SASL_MECHANISM !== undefined &&
    settings.KAFKA_SASL_USERNAME !== undefined &&
    settings.KAFKA_SASL_PASSWORD !== undefined
  ) {
    security.sasl = {
      mechanism: settings.KAFKA_SASL_MECHANISM,
      username: settings.KAFKA_SASL_USERNAME,
      password: settings.KAFKA_SASL_PASSWORD,
    } as SASLOptions;
  }
  return security;
}

/**
 * kafkaClientSecurity of the environment, validated by the same rules as a service's (the
 * password may come from KAFKA_SASL_PASSWORD_FILE): for the scripts, which have no config
 * class of their own. Throws a ConfigError naming what is wrong, never a value.
 */
export function kafkaSecurityFromEnv(
  env: Record<string, string | undefined> = process.env,
): KafkaClientSecurity {
  return kafkaClientSecurity(validateEnv(KafkaSecurityEnv, env));
}
