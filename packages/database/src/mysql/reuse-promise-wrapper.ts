/**
 * TypeORM's MySQL query runner asks its pooled connection for a promise wrapper on every query
 * (`connection.promise().query(...)`), and mysql2's `PoolConnection#promise` `require`s its
 * wrapper module on each call. That module was first loaded from another directory, so Node's
 * per-directory resolve cache misses and every call resolves the path again on disk metadata:
 * about 9 µs of CPU per query here (CPU profile of an inbox consumer, a tenth of its
 * per-event cost outside the socket writes), plus a new EventEmitter. The wrapper holds
 * nothing but the connection and the Promise class, so one per connection does the same work.
 */

/** The part of a mysql2 pooled connection this module uses. */
export interface PromiseWrappable {
  promise(promiseImpl?: PromiseConstructor): unknown;
}

/** Makes `connection.promise()` (no argument) return the same wrapper every time. */
export function reusePromiseWrapper(connection: PromiseWrappable): void {
  const wrap = connection.promise.bind(connection);
  let wrapper: unknown;
  connection.promise = (promiseImpl?: PromiseConstructor) =>
    promiseImpl === undefined ? (wrapper ??= wrap()) : wrap(promiseImpl);
}
