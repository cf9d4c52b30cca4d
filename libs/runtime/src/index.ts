export { bootstrapService } from './bootstrap-service';
export type { ServiceDefinition } from './bootstrap-service';
export { HealthController } from './health.controller';
