import { accessSync, constants } from 'node:fs';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, ValidateBy, ValidateIf } from 'class-validator';

/** The SASL mechanisms a client may use (kafkajs's names; the broker must enable the same). */
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** One of KAFKA_SASL_MECHANISMS. */
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** The validated settings kafkaClientSecurity reads. */
export interface KafkaSecuritySettings {
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
  KAFKA_SASL_PASSWORD_FILE?: string;
  KAFKA_SSL?: boolean;
  KAFKA_SSL_CA_FILE?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor = new (...args: any[]) => object;

const saslSet = (env: KafkaSecuritySettings): boolean =>
  env.KAFKA_SASL_MECHANISM !== undefined ||
  env.KAFKA_SASL_USERNAME !== undefined ||
  env.KAFKA_SASL_PASSWORD !== undefined;

/**
 * `Base` with the variables that secure a Kafka client: SASL (mechanism, user, password) and
 * TLS (on or off, and the CA that signed the brokers' certificates when it is not one Node
 * trusts). A mixin because two schemas need the same rules: CommonEnv (every service on Kafka)
 * and KafkaSecurityEnv (the scripts: ops CLI, demo, bench, checker). The three SASL variables
 * go together; a CA file needs KAFKA_SSL=true and must be readable at start.
 */
export function withKafkaSecurity<B extends Constructor>(Base: B) {
  class KafkaSecured extends Base implements KafkaSecuritySettings {
    /** `plain`, `scram-sha-256` or `scram-sha-512`; unset: no SASL. */
    @ValidateIf(saslSet)
    @IsIn(KAFKA_SASL_MECHANISMS, {
      message: `KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} (it is required with KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD)`,
    })
    KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;

    /** The client's SASL user (its principal on the cluster). */
    @ValidateIf(saslSet)
    @IsString({ message: 'KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM' })
    KAFKA_SASL_USERNAME?: string;

    /** The SASL user's password, or KAFKA_SASL_PASSWORD_FILE. A secret: never logged or echoed. */
    @ValidateIf(saslSet)
    @IsString({
      message:
        'KAFKA_SASL_PASSWORD is required with KAFKA_SASL_MECHANISM (or KAFKA_SASL_PASSWORD_FILE)',
    })
    KAFKA_SASL_PASSWORD?: string;

    /**
     * The file KAFKA_SASL_PASSWORD was read from, kept (unlike other `_FILE` variables) because
     * the client reads it again at each SASL login: a password rotated in the file is used by
     * the next connection or re-authentication, without a restart (kafkaClientSecurity).
     */
    @IsOptional()
    @IsString()
    KAFKA_SASL_PASSWORD_FILE?: string;

    /** `true`: connect over TLS. Default false. */
    @IsOptional()
    @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
    @IsBoolean({ message: 'KAFKA_SSL must be true or false' })
    KAFKA_SSL = false;

    /** PEM file of the CA the brokers' certificates chain to, when Node's own CAs do not. */
    @IsOptional()
    @ValidateBy({
      name: 'caFileWithSsl',
      validator: {
        validate: (_: unknown, args) => (args?.object as KafkaSecuritySettings).KAFKA_SSL === true,
        defaultMessage: () => 'KAFKA_SSL_CA_FILE is set but KAFKA_SSL is not true',
      },
    })
    @ValidateBy({
      name: 'readableFile',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && readable(value),
        defaultMessage: (args) => `KAFKA_SSL_CA_FILE: cannot read ${String(args?.value)}`,
      },
    })
    KAFKA_SSL_CA_FILE?: string;
  }
  return KafkaSecured;
}

/** The Kafka security variables alone: what the scripts' clients read (kafkaSecurityFromEnv). */
export class KafkaSecurityEnv extends withKafkaSecurity(class {}) {}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
