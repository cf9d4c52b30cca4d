/**
 * What is secret in a log line, defined once. Every logger of a service goes through it: pino's
 * `redact` paths and request serializer (pinoOptions), the last look at each line before it is
 * written (pino's `streamWrite` hook), and kafkajs's lines (kafkajsLogCreator).
 */

/** What a secret is replaced with. */
export const REDACTED = '[Redacted]';

/**
 * Request and response headers whose value is a credential: the operator token
 * (`authorization`), cookies, and the payment provider's callback signature
 * (order-service's `PayCallbackHeader.signature`; a spec there checks the two agree).
 */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-pay-signature',
];

/** Names of query parameters and fields that carry a credential (`?token=`, `access_token`). */
const SECRET_PARAM =
  '[a-z0-9]*[-_]?(?:token|secret|password|passwd)|api[-_]?key|apikey|signature|sig|auth|authorization|credentials?|session(?:[-_]?id)?|sid';

const SECRET_NAME = new RegExp(`^(?:${SECRET_PARAM})$`, 'i');

/** True when a header, query parameter or field of that name holds a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_HEADERS.includes(name.toLowerCase()) || SECRET_NAME.test(name);
}

/**
 * Credentials that can hide in any text (a URL in an error message, a header echoed in a
 * stack): `Bearer` and `Basic` credentials, `user:password@` in a URL, and the value of a
 * secret query parameter. The text may be JSON (the hook sees serialized lines), so a value
 * ends at a quote or backslash as well as at whitespace.
 */
const IN_TEXT: readonly [RegExp, string][] = [
  // Not a challenge's `realm=` nor a placeholder such as `<OPS_API_TOKEN>`.
  [/\b(Bearer|Basic)(\s+|%20|\+)(?!realm=|<)[^\s"'\\,;]+/gi, `$1$2${REDACTED}`],
  [/(\/\/[^/\s"'\\:@]*:)[^/\s"'\\@]+@/g, `$1${REDACTED}@`],
  [new RegExp(`([?&;](?:${SECRET_PARAM})=)[^&\\s"'\\\\#]+`, 'gi'), `$1${REDACTED}`],
];

/** `text` with every credential the patterns above recognise replaced by REDACTED. */
export function redactText(text: string): string {
  let result = text;
  for (const [pattern, replacement] of IN_TEXT) result = result.replace(pattern, replacement);
  return result;
}

/** A request URL with the values of its secret query parameters replaced. */
export function redactUrl(url: string): string {
  return redactText(url);
}

/**
 * A copy of `value` safe to log: fields with a secret name are replaced, strings are passed
 * through redactText. Nesting is followed a few levels deep; deeper objects are left out.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 6) return '[Object]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value instanceof Error) {
    const copy: Record<string, unknown> = { name: value.name, message: redactText(value.message) };
    if (value.stack) copy.stack = redactText(value.stack);
    return { ...copy, ...(redactValue({ ...value }, depth + 1) as object) };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] = isSecretName(key) ? REDACTED : redactValue(field, depth + 1);
  }
  return copy;
}

/**
 * pino `redact` paths for the secret headers wherever pino-http or an error puts them: the
 * request and response lines, and headers nested up to two levels in any logged object
 * (`err.config.headers`, `err.response.headers`, ...).
 */
export function pinoRedactPaths(): string[] {
  const paths: string[] = [];
  for (const header of SECRET_HEADERS) {
    const field = `["${header}"]`;
    paths.push(`req.headers${field}`, `res.headers${field}`, `headers${field}`);
    paths.push(`*.headers${field}`, `*.*.headers${field}`);
  }
  return paths;
}
