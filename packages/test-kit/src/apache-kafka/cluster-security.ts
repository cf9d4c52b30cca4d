import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KafkaConfig } from 'kafkajs';
import { makeClusterTls } from './cluster-tls';

/** The super user: brokers and controllers authenticate as it, and the kit's own admin. */
export const CLUSTER_ADMIN = 'admin';

/** The SASL mechanism of the client and inter-broker listeners, as kafkajs names it. */
export const CLUSTER_SASL_MECHANISM = 'scram-sha-512';

/** How a secured cluster is secured, as its state file records it. */
export interface ClusterSecurity {
  /** What clients speak: SASL over TLS, SCRAM-SHA-512. */
  mechanism: typeof CLUSTER_SASL_MECHANISM;
  /** The PEM CA certificate clients trust (KAFKA_SSL_CA_FILE). */
  caFile: string;
  /** The nodes' PEM key and certificate. */
  keystoreFile: string;
  /** The SCRAM users created at format time, name → password; CLUSTER_ADMIN among them. */
  users: Record<string, string>;
  /** The brokers' `connections.max.reauth.ms` on the client listener; unset: sessions never end. */
  reauthMs?: number;
}

/**
 * A CA and node certificate in `tlsDir`, and a random password for the admin and for each of
 * `principals`. Passwords are hex: nothing in a properties file, a JAAS line or a
 * `--add-scram` argument needs quoting.
 */
export function newClusterSecurity(tlsDir: string, principals: string[]): ClusterSecurity {
  const users: Record<string, string> = {};
  for (const name of [CLUSTER_ADMIN, ...principals]) users[name] = randomBytes(18).toString('hex');
  return { mechanism: CLUSTER_SASL_MECHANISM, ...makeClusterTls(tlsDir), users };
}

/**
 * kafkajs's `ssl` and `sasl` for user `username` of a secured cluster: TLS that trusts the
 * cluster's CA alone, SCRAM-SHA-512 with the user's password (or `password`, to try a wrong one).
 */
export function clusterClientSecurity(
  security: ClusterSecurity,
  username: string,
  password = security.users[username],
): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  if (password === undefined)
    throw new Error(`no SCRAM user ${username}: users are ${Object.keys(security.users)}`);
  return {
    ssl: { ca: [readFileSync(security.caFile, 'utf8')] },
    sasl: { mechanism: security.mechanism, username, password },
  };
}

/** The environment a service needs to connect as `username` (issue 36's settings). */
export function clusterClientEnv(
  security: ClusterSecurity,
  username: string,
): Record<string, string> {
  return {
    KAFKA_SASL_MECHANISM: security.mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: security.users[username],
    KAFKA_SSL: 'true',
    KAFKA_SSL_CA_FILE: security.caFile,
  };
}

/**
 * The environment a process needs to connect as `username`, its password in a file of `dir`
 * (KAFKA_SASL_PASSWORD_FILE, as a secret store mounts it) rather than in the environment.
 */
export function clusterClientFileEnv(
  security: ClusterSecurity,
  username: string,
  dir: string,
): Record<string, string> {
  const { KAFKA_SASL_PASSWORD: password, ...env } = clusterClientEnv(security, username);
  const file = join(dir, `${username}.kafka-password`);
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { ...env, KAFKA_SASL_PASSWORD_FILE: file };
}
