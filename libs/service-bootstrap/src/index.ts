export { bootstrapService, serviceRoot } from './bootstrap-service';
export type { ServiceDefinition } from './bootstrap-service';
/** Shared HTTP conventions: body cap, raw-body routes, validation with field errors, Swagger. */
export { configureHttp, openApiDocument, serveOpenApi } from './configure-http';
export type { HttpSurfaceOptions } from './configure-http';
/** The operator token every HTTP route needs unless marked @PublicRoute() (the app's guard). */
export { OperatorAuthModule } from './operator-auth/operator-auth.module';
export type { OperatorAuthOptions } from './operator-auth/operator-auth.module';
/** Who called an operator route: the name of the token presented (`request.user`). */
export type { AuthenticatedOperator } from './operator-auth/operator-auth.guard';
/** The relay's publisher of KAFKA_CLIENT (kafkajs, the default, or confluent), for OutboxModule. */
export { outboxPublisherFromEnv } from './outbox-publisher-from-env';
