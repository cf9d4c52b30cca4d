import { DEFAULT_PORTS } from '../stack/start-stack';

/** The services of the stack, by the names `--service` takes. */
const SERVICES = {
  order: { service: 'order-service', parts: ['outbox'] },
  fulfillment: { service: 'fulfillment-service', parts: ['outbox', 'inbox'] },
  accounting: { service: 'accounting-service', parts: ['inbox'] },
  coupon: { service: 'coupon-provider', parts: [] },
} as const;

/** A short service name (`order`), as `--service` takes it. */
export type ServiceShortName = keyof typeof SERVICES;
/** What a service's ops API may hold. */
export type OpsPart = 'outbox' | 'inbox';

/** The service a command talks to: its base URL and, when named, which parts it runs. */
export interface ServiceTarget {
  url: string;
  /** `order-service`, ...; undefined when given as a URL. */
  service?: string;
  /** The parts the named service runs; undefined when given as a URL (asked at call time). */
  parts?: readonly OpsPart[];
}

/** The short names, for help texts and errors. */
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceShortName[];

/**
 * `--service` as a name (`order`, `fulfillment`, `accounting`, `coupon`, or the full
 * `order-service`) or a URL. A name resolves as the stack and docker compose configure the
 * services: `$ORDER_SERVICE_URL` (...`_URL`) when set, else `http://127.0.0.1:<port>` with
 * `$ORDER_SERVICE_PORT` (...`_PORT`) or the stack's default port. Undefined when it is neither.
 */
export function resolveService(
  value: string,
  env: NodeJS.ProcessEnv = process.env,
): ServiceTarget | undefined {
  if (/^https?:\/\/[^/\s]+(\/\S*)?$/.test(value)) return { url: value.replace(/\/+$/, '') };
  const short = value.toLowerCase().replace(/-(service|provider)$/, '') as ServiceShortName;
  const known = SERVICES[short];
  if (!known) return undefined;
  const variable = known.service.toUpperCase().replace(/-/g, '_');
  const url =
    env[`${variable}_URL`] ??
    `http://127.0.0.1:${env[`${variable}_PORT`] ?? DEFAULT_PORTS[known.service]}`;
  return { url: url.replace(/\/+$/, ''), service: known.service, parts: known.parts };
}

/** The services that run `part`, for "order-service has no inbox (...)". */
export function servicesWith(part: OpsPart): string[] {
  return Object.values(SERVICES)
    .filter((s) => (s.parts as readonly OpsPart[]).includes(part))
    .map((s) => s.service);
}
