/** Mounts a module's operator endpoints as they are or behind given guards. */
export { operatorControllers } from './operator-routes';
export type { OperatorRoutes } from './operator-routes';
/** The validation of a list route's optional `limit` query parameter. */
export { PageLimit } from './page-limit';
/** Operator reads that answer 503 with what the process knows, never 500, during an outage. */
export { DegradedRead } from './degraded-read';
export type { DegradedCause, DegradedReadBody, KnownState } from './degraded-read';
/** The calling operator's name (`request.user.name`, set by the app's guard): the audit's "who". */
export { OperatorName, UNNAMED_OPERATOR } from './operator-name.decorator';
/** HTTP input validation: unknown fields rejected, 400 with every failing field by path. */
export { invalidRequest, validInput } from './valid-input';
