import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { javaArgs } from './broker-install';
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
  const args = [
    ...javaArgs('org.apache.kafka.tools.ConfigCommand', { max: '256m', initial: '64m' }),
    ...['--bootstrap-server', brokers.join(','), '--command-config', clientConfig],
    ...['--alter', '--entity-type', 'users', '--entity-name', change.user, ...edit],
  ];
  try {
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0)
      throw new Error(`altering the SCRAM credential of ${change.user} failed:\n${output}`);
  } finally {
    rmSync(clientConfig, { force: true });
  }
}
