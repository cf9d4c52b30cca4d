import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKafkaTool } from './broker-install';
import { CLUSTER_ADMIN, ClusterSecurity } from './cluster-security';

/** A change to one user's SCRAM-SHA-512 credential: a new password, or none at all. */
export type ScramChange = { user: string; password: string } | { user: string; delete: true };

/**
 * Applies `change` to the cluster with Kafka's own kafka-configs tool (ConfigCommand, from the
 * resolved jars, as the kit formats storage with StorageTool): kafkajs has no
 * AlterUserScramCredentials call. The tool logs in as the admin over SASL_SSL; its client
 * settings, which hold the admin's password, go in a file of the cluster's own (mode 600),
 * removed afterwards, and never on a command line that `ps` shows. Throws with the tool's
 * output, which holds no password (it echoes neither).
 */
export async function alterScramCredential(
  dir: string,
  brokers: string[],
  security: ClusterSecurity,
  change: ScramChange,
): Promise<void> {
  const clientConfig = join(dir, `admin-client-${randomBytes(4).toString('hex')}.properties`);
  writeFileSync(
    clientConfig,
    [
      'security.protocol=SASL_SSL',
      'sasl.mechanism=SCRAM-SHA-512',
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${CLUSTER_ADMIN}" password="${security.users[CLUSTER_ADMIN]}";`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${security.caFile}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const edit =
    'delete' in change
      ? ['--delete-config', 'SCRAM-SHA-512']
      : ['--add-config', `SCRAM-SHA-512=[password=${change.password}]`];
  try {
    await runKafkaTool(
      'org.apache.kafka.tools.ConfigCommand',
      [
        ...['--bootstrap-server', brokers.join(','), '--command-config', clientConfig],
        ...['--alter', '--entity-type', 'users', '--entity-name', change.user, ...edit],
      ],
      `altering the SCRAM credential of ${change.user} failed`,
    );
  } finally {
    rmSync(clientConfig, { force: true });
  }
}
