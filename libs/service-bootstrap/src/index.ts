export { bootstrapService, serviceRoot } from './bootstrap-service';
export type { ServiceDefinition } from './bootstrap-service';
/** Shared HTTP conventions: body cap, raw-body routes, validation with field errors, Swagger. */
export {
  configureHttp,
  invalidRequest,
  openApiDocument,
  serveOpenApi,
  validInput,
} from './configure-http';
export type { HttpFieldError, HttpSurfaceOptions } from './configure-http';
