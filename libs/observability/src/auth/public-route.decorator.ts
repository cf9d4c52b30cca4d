import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

/** Metadata key set by @PublicRoute(). */
export const PUBLIC_ROUTE = 'operator-auth:public';

/**
 * Marks a controller or handler as open to callers without the operator token: health probes,
 * the customer API, a callback with its own signature. Every other route needs the token. In
 * the OpenAPI document the route's security is `[{}]`, "no credentials needed".
 */
export function PublicRoute(): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiSecurity({}));
}
