/** Mounts a module's operator endpoints as they are or behind given guards. */
export { operatorControllers } from './operator-routes';
export type { OperatorRoutes } from './operator-routes';
/** The validation of a list route's optional `limit` query parameter. */
export { PageLimit } from './page-limit';
