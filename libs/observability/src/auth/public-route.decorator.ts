import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

/** Metadata key set by @PublicRoute(); the operator guard of @app/service-bootstrap reads it. */
export const PUBLIC_ROUTE = 'operator-auth:public';

/**
 * Marks a controller or handler as open to callers without the operator token: health probes,
 * the customer API, a callback with its own signature. Every other route needs the token. In
 * the OpenAPI document the route's security is `[{}]`, "no credentials needed".
 *
 * It lives here, below the guard (OperatorAuthGuard in @app/service-bootstrap), because
 * observability's own health routes are public and service-bootstrap builds on observability.
 */
export function PublicRoute(): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiSecurity({}));
}
