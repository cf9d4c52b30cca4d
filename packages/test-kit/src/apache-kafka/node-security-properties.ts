import { ClusterSecurity, CLUSTER_ADMIN } from './cluster-security';

/**
 * The settings that secure a node: SASL_SSL on every listener, SCRAM-SHA-512 for clients and
 * between brokers, SASL/PLAIN on the controller listener (KRaft cannot use SCRAM there: the
 * credentials live in the metadata the quorum serves), TLS from the kit's CA, and KRaft's
 * StandardAuthorizer that denies what no ACL allows. The admin is the one super user: the
 * nodes authenticate as it to each other and to the quorum.
 */
export function nodeSecurityProperties(security: ClusterSecurity): string[] {
  const password = security.users[CLUSTER_ADMIN];
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required';
  const plain = 'org.apache.kafka.common.security.plain.PlainLoginModule required';
  return [
    'listener.security.protocol.map=CLIENT:SASL_SSL,INTERNAL:SASL_SSL,CONTROLLER:SASL_SSL',
    'sasl.enabled.mechanisms=SCRAM-SHA-512',
    'sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512',
    // The node's own login on INTERNAL; the client listener only checks others' SCRAM logins.
    `listener.name.internal.scram-sha-512.sasl.jaas.config=${scram} username="${CLUSTER_ADMIN}" password="${password}";`,
    `listener.name.client.scram-sha-512.sasl.jaas.config=${scram};`,
    'listener.name.controller.sasl.enabled.mechanisms=PLAIN',
    'sasl.mechanism.controller.protocol=PLAIN',
    // Both sides of the quorum's connections: the node's login and the one user it accepts.
    `listener.name.controller.plain.sasl.jaas.config=${plain} username="${CLUSTER_ADMIN}" password="${password}" user_${CLUSTER_ADMIN}="${password}";`,
    // PEM files, read by the JVM as they are: no keytool, no store passwords.
    'ssl.keystore.type=PEM',
    `ssl.keystore.location=${security.keystoreFile}`,
    'ssl.truststore.type=PEM',
    `ssl.truststore.location=${security.caFile}`,
    'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'allow.everyone.if.no.acl.found=false',
    `super.users=User:${CLUSTER_ADMIN}`,
    // KIP-368: clients log in again within this long, so a changed credential reaches them.
    ...(security.reauthMs !== undefined
      ? [`listener.name.client.scram-sha-512.connections.max.reauth.ms=${security.reauthMs}`]
      : []),
  ];
}
