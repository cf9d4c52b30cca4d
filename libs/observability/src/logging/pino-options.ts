import { IncomingMessage, ServerResponse } from 'node:http';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { Params } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';
import {
  acceptCorrelationId,
  CORRELATION_HEADER,
  currentCorrelationId,
} from '../correlation/correlation-context';
import { isSecretName, pinoRedactPaths, REDACTED, redactText, redactUrl } from './secrets';

/** Nest's log levels (LOG_LEVEL) and the pino level each one maps to. */
const PINO_LEVEL: Record<string, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Probes and scrapes: too frequent for access lines (a failing probe is logged by terminus). */
const QUIET_PATHS = /^\/(health|metrics)(\/|$|\?)/;

/**
 * nestjs-pino settings: JSON lines with `service`, `correlationId` and, inside a span,
 * `traceId` and `spanId` on every line (request handlers and inbox consumers alike, read from
 * the async context at log time). Levels are written as names, times as ISO 8601. The request
 * id of pino-http is the correlation id. Access lines are `debug` (5xx: `error`; health and
 * metrics: `trace`), so LOG_LEVEL=log keeps the output to what the code logs. Secrets never
 * reach a line (see secrets.ts): secret headers are redacted wherever they are logged, the
 * request's URL and query lose their secret parameters, and every line is scrubbed of
 * credentials in text (`Bearer …`, `Basic …`, `user:password@`) just before it is written.
 */
export function pinoOptions(service: string, logLevel: string): Params {
  return {
    pinoHttp: {
      level: PINO_LEVEL[logLevel] ?? 'info',
      base: { service },
      messageKey: 'message',
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
      genReqId: (req: IncomingMessage) => {
        const id = acceptCorrelationId(req.headers[CORRELATION_HEADER]);
        req.headers[CORRELATION_HEADER] = id;
        return id;
      },
      quietReqLogger: true,
      redact: { paths: pinoRedactPaths(), censor: REDACTED },
      serializers: { req: redactRequest },
      hooks: { streamWrite: redactText },
      customLogLevel: (req: IncomingMessage, res: ServerResponse, error?: Error) => {
        if (QUIET_PATHS.test(req.url ?? '')) return 'trace';
        return error || res.statusCode >= 500 ? 'error' : 'debug';
      },
      mixin: () => {
        const fields: Record<string, string> = {};
        // A request sets it, and the inbox settles each message under it (CorrelatedMessageScope).
        const correlationId = currentCorrelationId();
        if (correlationId) fields.correlationId = correlationId;
        const span = trace.getActiveSpan()?.spanContext();
        if (span && isSpanContextValid(span)) {
          fields.traceId = span.traceId;
          fields.spanId = span.spanId;
        }
        return fields;
      },
    },
  };
}

/** pino-http's serialized request, with its URL and query stripped of secret parameters. */
function redactRequest(req: { url?: string; query?: Record<string, unknown> }): object {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query ?? {}))
    query[name] = isSecretName(name) ? REDACTED : value;
  return { ...req, url: req.url === undefined ? undefined : redactUrl(req.url), query };
}
