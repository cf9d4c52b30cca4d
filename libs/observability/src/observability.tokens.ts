/** The BrokerProbe of a service on Kafka (null for a service without Kafka). */
export const BROKER_PROBE = Symbol('BROKER_PROBE');
/** The resolved ReadinessThresholds. */
export const READINESS_THRESHOLDS = Symbol('READINESS_THRESHOLDS');
