export { CommonEnv, HttpEnv, ServiceEnv } from './common-env';
export { ConfigError } from './config.error';
export { serviceConfig } from './service-config';
export { EnvSchema, validateEnv } from './validate-env';
