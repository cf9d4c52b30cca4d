export { aclsInForce, applyKafkaAccess } from './apply-kafka-access';
export { kafkaAccessCommands } from './kafka-access-commands';
export { KAFKA_ACCESS_FILE, readKafkaAccessFile } from './kafka-access-file';
export type { AccessOperation, AccessRule, KafkaAccessFile } from './kafka-access-file';
export { kafkaAccessPlan } from './kafka-access-plan';
export type { KafkaAccessPlan, PlannedAcl } from './kafka-access-plan';
