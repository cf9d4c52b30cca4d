import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE } from '@app/observability';
import { bodyErrorAsHttp, DEFERRED_BODY_ERROR } from './deferred-body-error';
import { OperatorTokens } from './operator-tokens';

/** The realm named in the 401's challenges. */
export const OPERATOR_REALM = 'operator';

/** Who the operator routes' handlers see as the caller: the name of the token presented. */
export interface AuthenticatedOperator {
  name: string;
}

/** The name recorded for callers while OPS_API_INSECURE leaves the routes open. */
export const INSECURE_OPERATOR_NAME = 'anonymous (OPS_API_INSECURE)';

interface HttpRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: AuthenticatedOperator;
  [DEFERRED_BODY_ERROR]?: { status?: unknown; message?: unknown };
}
interface HttpResponse {
  setHeader(name: string, value: string | string[]): void;
}

/**
 * Every HTTP route needs the operator token unless it is marked @PublicRoute(). The token comes
 * as `Authorization: Bearer <token>` (CLI, scripts, Prometheus) or as the password of
 * `Authorization: Basic` (any user name), which a browser asks for and then sends with the /ops
 * page's own requests. The name of the token (OPS_API_TOKENS) becomes `request.user.name`,
 * the "who" of the audit log. Anything else is 401 with both challenges. `tokens: null` means
 * OPS_API_INSECURE: every route is open (the module says so in the log). A body the parsers
 * could not read is answered (400/413) only after that, so it never hides the 401.
 */
@Injectable()
export class OperatorAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: OperatorTokens | null,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    // Kafka handlers (the inbox transport) are not HTTP routes.
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequest>();
    if (this.authenticated(context, request)) {
      const bodyError = request[DEFERRED_BODY_ERROR];
      if (bodyError) throw bodyErrorAsHttp(bodyError);
      return true;
    }
    const presented = presentedToken(request.headers.authorization);
    http
      .getResponse<HttpResponse>()
      .setHeader('WWW-Authenticate', [
        `Bearer realm="${OPERATOR_REALM}"`,
        `Basic realm="${OPERATOR_REALM}", charset="UTF-8"`,
      ]);
    throw new UnauthorizedException(
      presented === undefined
        ? 'this route needs the operator token (Authorization: Bearer <OPS_API_TOKEN>)'
        : 'the operator token is wrong',
    );
  }

  private authenticated(context: ExecutionContext, request: HttpRequest): boolean {
    if (this.tokens === null) {
      request.user = { name: INSECURE_OPERATOR_NAME };
      return true;
    }
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const presented = presentedToken(request.headers.authorization);
    const name = presented === undefined ? undefined : this.tokens.identify(presented);
    if (name === undefined) return false;
    request.user = { name };
    return true;
  }
}

function presentedToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^(Bearer|Basic) +(\S+)$/i.exec(header.trim());
  if (!match) return undefined;
  if (match[1].toLowerCase() === 'bearer') return match[2];
  const decoded = Buffer.from(match[2], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}
