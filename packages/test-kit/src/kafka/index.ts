export { createTopics } from './create-topics';
export { kafkaChoice } from './kafka-choice';
export type { KafkaChoice } from './kafka-choice';
export { KAFKA_STARTUP_MS, startKafka } from './kafka-broker';
export type { KafkaBroker, StartKafkaOptions } from './kafka-broker';
export type { KafkaFaults } from './kafka-faults';
export { sharedClusterSecurity, testKafkaConfig } from './test-kafka-config';
export type { BrokerListConfig } from './test-kafka-config';
