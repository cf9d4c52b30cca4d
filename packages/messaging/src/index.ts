/** The base of the packages' typed errors: a `code` from a closed union and a `cause`. */
export { CodedError } from './coded-error';
/** Builds a validated envelope from an event definition; validates one read from a row or Kafka. */
export { createEnvelope, validateEnvelope, validateEnvelopeOnly } from './create-envelope';
export type { NewEvent } from './create-envelope';
/** The envelope every event travels in, its W3C trace context and its idempotency key. */
export { EventEnvelope, eventKeyOf, TraceContext } from './envelope';
/** Declares a versioned event type: name, aggregate type, schema version, payload class. */
export { defineEvent } from './event-definition';
export type { EventDefinition, PayloadClass, PayloadOf } from './event-definition';
/** The event types a process knows, by type and schema version. */
export { EventRegistry } from './event-registry';
/** `@IsISO8601({ strict: true })` with a fast path for `toISOString()`'s form; same verdict. */
export { IsStrictIso8601, isStrictIso8601 } from './iso-timestamp';
/** The envelope's fields as Kafka headers, and Kafka headers read back as strings. */
export { envelopeHeaders, EventHeader, readHeaders } from './kafka-headers';
/** class-validator checks of plain objects, with every failing field by path. */
export { EventValidationError, fieldErrorsOf, validatePlain } from './validation';
export type { FieldError, ValidateOptions } from './validation';
/** How a message's trace travels (capture, publish, receive), and its OpenTelemetry default. */
export { openTelemetryTracing } from './open-telemetry-tracing';
export type { MessageTracing, OutgoingBatch, OutgoingMessage } from './message-tracing';
/** Kafka client settings (brokers, clientId, ssl, sasl) or an application's own kafkajs client. */
export { kafkaClient, kafkaConnectionProblems } from './kafka-client';
export type { KafkaConnection } from './kafka-client';
/** Which topics the cluster does not list (a start-up check). */
export { missingTopics } from './missing-topics';
/** Reads a topic up to its end when the read began: whole, or streamed batch by batch. */
export { readWholeTopic, streamTopic, topicRanges } from './topic-reader';
export type { PartitionRange, StreamTopicOptions, TopicMessage } from './topic-reader';
/** A cluster that refuses a client (SASL login, untrusted or expired certificate): its code and remedy. */
export {
  BROKER_ACCESS_CODES,
  brokerAccessRefusalOf,
  brokerAccessRemedy,
} from './broker-access-refusal';
export type { BrokerAccessCode } from './broker-access-refusal';
