/**
 * The Content-Security-Policy of the console's page and files: scripts only from the console
 * itself (its ES modules, never an inline script or handler), styles only from its style sheet
 * (the scripts set colours through the CSSOM, which the policy allows), requests only to the
 * console, no frames, plugins or foreign forms.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
