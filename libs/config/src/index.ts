export { CommonEnv, ServiceEnv } from './common-env';
export { ConfigError } from './config.error';
export { loadConfig } from './load-config';
