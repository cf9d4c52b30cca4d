import { HttpException } from '@nestjs/common';

/**
 * Where the body parsers leave a body they could not read (malformed JSON 400, too large 413,
 * bad charset 415), instead of answering at once: the operator guard first authenticates the
 * request, so a caller without the token gets 401 whatever its body, and only then answers
 * this error. configureHttp (in @app/service-bootstrap) sets it.
 */
export const DEFERRED_BODY_ERROR = Symbol('deferred-body-error');

/** A body parser's error as the 4xx it is. */
export function bodyErrorAsHttp(error: { status?: unknown; message?: unknown }): HttpException {
  const status =
    typeof error.status === 'number' && error.status >= 400 && error.status < 500
      ? error.status
      : 400;
  const message =
    status === 413 ? 'request body too large' : String(error.message ?? 'unreadable body');
  return new HttpException({ statusCode: status, message }, status);
}
