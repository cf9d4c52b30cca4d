import { IncomingMessage } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validInput } from '@outbox-inbox/messaging/http';
import { ClientErrorFilter } from './client-error.filter';
import { DEFERRED_BODY_ERROR } from './operator-auth/deferred-body-error';
import { OPERATOR_REALM } from './operator-auth/operator-auth.guard';

/** How `configureHttp` sets up a service's HTTP surface. */
export interface HttpSurfaceOptions {
  /** Swagger title; the UI is served at /docs and the JSON at /docs-json. */
  title: string;
  description?: string;
  /** Largest request body in bytes; larger → 413. Default 16 kB. */
  bodyLimitBytes?: number;
  /**
   * Paths whose body stays raw bytes (a Buffer in `req.body`), whatever the content type, for
   * handlers that must verify a signature over the exact bytes before parsing them.
   */
  rawBodyPaths?: string[];
  /**
   * Validate every route's input with one global ValidationPipe (default true). An app that
   * also runs Kafka handlers sets false, because global pipes and filters would reach those
   * handlers too, and puts `validInput` on its routes' parameters instead.
   */
  globalValidation?: boolean;
}

/**
 * The HTTP conventions every service shares: a body size cap on every body (413), raw bytes
 * for signed routes, a global ValidationPipe that rejects unknown fields and answers 400 with
 * `fieldErrors`, and Swagger at /docs, whose document marks every route as needing the
 * operator token except those marked @PublicRoute() (OperatorAuthModule's guard enforces it).
 * A body the parsers cannot read is answered by that guard after authentication, so a caller
 * without the token gets 401 whatever it sent. Errors keep Nest's JSON shape, which never
 * carries a stack trace. Call before `listen` (bootstrapService's `configure` hook).
 */
export function configureHttp(app: INestApplication, options: HttpSurfaceOptions): void {
  const limit = options.bodyLimitBytes ?? 16 * 1024;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(`configureHttp: bodyLimitBytes must be a positive integer, got ${limit}`);
  }
  const rawPaths = new Set(options.rawBodyPaths ?? []);
  const isRawPath = (req: IncomingMessage) => rawPaths.has(pathOf(req));
  const express = app as NestExpressApplication;
  // Registered before Nest's default parsers (added at init), which then skip parsed bodies.
  express.useBodyParser('raw', { type: isRawPath, limit });
  express.useBodyParser('json', { limit });
  // Any other content type is read as bytes too, so the cap holds for every body.
  express.useBodyParser('raw', { type: () => true, limit });
  // An express error handler that calls next() without the error resumes routing: the guard
  // answers the parse error once it has checked the token.
  express.use(
    (error: unknown, req: IncomingMessage, _res: unknown, next: (error?: unknown) => void) => {
      if (!isBodyParserError(error)) return next(error);
      (req as unknown as Record<symbol, unknown>)[DEFERRED_BODY_ERROR] = error;
      next();
    },
  );

  if (options.globalValidation ?? true) {
    app.useGlobalFilters(new ClientErrorFilter(app.getHttpAdapter()));
    app.useGlobalPipes(validInput);
  }
  serveOpenApi(app, options);
}

/**
 * Swagger UI at /docs and the document at /docs-json. Every route needs the operator token
 * unless marked @PublicRoute() (security `[{}]`), as OperatorAuthModule's guard enforces.
 */
export function serveOpenApi(
  app: INestApplication,
  options: Pick<HttpSurfaceOptions, 'title' | 'description'>,
): void {
  SwaggerModule.setup('docs', app, openApiDocument(app, options));
}

/** The OpenAPI document of an app's routes, as /docs-json serves it. */
export function openApiDocument(
  app: INestApplication,
  options: Pick<HttpSurfaceOptions, 'title' | 'description'>,
): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(options.title)
      .setDescription(options.description ?? '')
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'OPS_API_TOKEN' },
        OPERATOR_REALM,
      )
      .addSecurityRequirements(OPERATOR_REALM)
      .build(),
  );
}

/** body-parser's errors carry an HTTP status and a `type` such as 'entity.parse.failed'. */
function isBodyParserError(error: unknown): boolean {
  const candidate = error as { status?: unknown; type?: unknown } | null;
  return typeof candidate?.type === 'string' && typeof candidate.status === 'number';
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
