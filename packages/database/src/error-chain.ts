/** One link of an error chain, as the drivers and TypeORM build them. */
export interface ErrorLink {
  name?: unknown;
  errno?: unknown;
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

/** `error` and the errors it wraps (TypeORM's `driverError`, an Error's `cause`), four at most. */
export function* errorChain(error: unknown): Generator<ErrorLink> {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const link = e as ErrorLink;
    yield link;
    e = link.driverError ?? link.cause;
  }
}
