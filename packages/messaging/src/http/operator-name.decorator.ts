import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Recorded as "who" when no guard named the caller (routes mounted without auth). */
export const UNNAMED_OPERATOR = 'unauthenticated';

/**
 * The name of the operator calling a route, as the app's auth guard set it on
 * `request.user.name` (the Passport convention): the audit log's "who".
 */
export const OperatorName = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<{ user?: { name?: unknown } }>();
  const name = request.user?.name;
  return typeof name === 'string' && name.length > 0 ? name : UNNAMED_OPERATOR;
});
