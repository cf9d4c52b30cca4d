export { CommonEnv, HttpEnv, ServiceEnv } from './common-env';
export { ConfigError } from './config.error';
export { serviceConfig } from './service-config';
export { EnvSchema, validateEnv } from './validate-env';
export { withDatabasePassword } from './database-password';
export {
  KafkaClientSecurity,
  kafkaClientSecurity,
  kafkaSecurityFromEnv,
} from './kafka-client-security';
export {
  KAFKA_SASL_MECHANISMS,
  KafkaSaslMechanism,
  KafkaSecurityEnv,
  KafkaSecuritySettings,
  withKafkaSecurity,
} from './kafka-security-env';
export {
  readSecretFile,
  readSecretFiles,
  SECRET_VARIABLES,
  SecretFileReader,
} from './secret-files';
export { MigrateEnv, migrationUrl } from './migrate-env';
