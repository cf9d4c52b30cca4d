/** Mounts a module's operator endpoints as they are or behind given guards. */
export { operatorControllers } from './operator-routes';
export type { OperatorRoutes } from './operator-routes';
/** The validation of a list route's optional `limit` query parameter. */
export { PageLimit } from './page-limit';
/** Operator reads that answer 503 with what the process knows, never 500, during an outage. */
export { DegradedRead } from './degraded-read';
export type { DegradedCause, DegradedReadBody, KnownState } from './degraded-read';
