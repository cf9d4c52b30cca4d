import { readFileSync } from 'node:fs';
import { KafkaConfig, KafkaJSSASLAuthenticationError, SASLOptions } from 'kafkajs';
import { ConfigError } from './config.error';
import { KafkaSecurityEnv, KafkaSecuritySettings } from './kafka-security-env';
import { readSecretFile, SecretFileReader } from './secret-files';
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
 *
 * A password from KAFKA_SASL_PASSWORD_FILE is read from the file at each SASL login: kafkajs
 * keeps the `sasl` object it is given and reads its `password` whenever a connection
 * authenticates (a new connection, or a re-authentication when the broker's
 * `connections.max.reauth.ms` ends the session), so a password rotated in the file is used
 * without a restart. A file that cannot be read then fails that login as a refused password
 * does (KafkaJSSASLAuthenticationError naming the variable and the path, never a value): the
 * client retries, the relay holds its rows.
 */
export function kafkaClientSecurity(
  settings: KafkaSecuritySettings,
  readFile?: SecretFileReader,
): KafkaClientSecurity {
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
    const sasl = {
      mechanism: settings.KAFKA_SASL_MECHANISM,
      username: settings.KAFKA_SASL_USERNAME,
      password: settings.KAFKA_SASL_PASSWORD,
    };
    const file = settings.KAFKA_SASL_PASSWORD_FILE;
    // A getter, not a copy: whoever passes `sasl` on must pass the object, never spread it.
    if (file !== undefined)
      Object.defineProperty(sasl, 'password', {
        enumerable: true,
        get: () => passwordAtLogin(file, readFile),
      });
    security.sasl = sasl as SASLOptions;
  }
  return security;
}

// kafkajs's typings declare no constructor arguments; its class takes the message as others do.
const SaslLoginRefused = KafkaJSSASLAuthenticationError as unknown as new (
  message: string,
) => Error;

/** KAFKA_SASL_PASSWORD read from `file` now; a failure as kafkajs reports a refused login. */
function passwordAtLogin(file: string, readFile?: SecretFileReader): string {
  try {
    return readSecretFile('KAFKA_SASL_PASSWORD', file, readFile);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new SaslLoginRefused(error.problems.join('; '));
  }
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
