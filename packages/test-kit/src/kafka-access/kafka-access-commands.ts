import { KafkaAccessPlan } from './kafka-access-plan';

/**
 * The plan as Apache Kafka's own tools run it (kafka-topics.sh, kafka-acls.sh), for an
 * operator who applies it by hand or from their own automation. `configFile` is the
 * admin's client properties (--command-config: SASL and TLS settings).
 */
export function kafkaAccessCommands(
  plan: KafkaAccessPlan,
  bootstrap: string,
  configFile = 'admin.properties',
): string[] {
  const common = `--bootstrap-server ${bootstrap} --command-config ${configFile}`;
  const topics = plan.topics.map(
    (t) =>
      `kafka-topics.sh ${common} --create --if-not-exists --topic ${t.name} --partitions ${t.partitions}`,
  );
  const acls = plan.acls.map(
    (a) =>
      `kafka-acls.sh ${common} --add --allow-principal User:${a.principal} ` +
      `--operation ${a.operation} --${a.resourceType.toLowerCase()} ${a.prefix} ` +
      '--resource-pattern-type prefixed',
  );
  return [...topics, ...acls];
}
