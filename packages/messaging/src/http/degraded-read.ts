import { HttpException, HttpStatus, Logger } from '@nestjs/common';

/** Why an operator read answered from memory: the failure of the dependency it could not reach. */
export interface DegradedCause {
  /** The error's code (`ECONNREFUSED`, `ER_LOCK_WAIT_TIMEOUT`, ...) or its class name. */
  code: string;
  message: string;
  /** When the read failed, ISO-8601. */
  at: string;
}

/**
 * The body of an operator read that could not reach the database or the broker: 503, what the
 * process knows without them (counters and blocked partitions held in memory), and `degraded`.
 */
export interface DegradedReadBody {
  statusCode: 503;
  error: 'Service Unavailable';
  message: string;
  degraded: { cause: DegradedCause };
  [known: string]: unknown;
}

/** What a degraded read knows without its dependencies, read from the controller. */
export type KnownState<C> = (controller: C) => object | Promise<object>;

const logger = new Logger('OperatorRead');

/**
 * Marks an operator read route that must answer during an outage. When the handler fails with
 * anything but an HTTP error (a lost database connection, an unreachable broker), the route
 * answers 503 with a DegradedReadBody: the cause, and what `known` reads from memory (nothing
 * when omitted). An operator gets the state the service still knows, never a bare 500.
 *
 * A method decorator, so that `known` sees the controller instance; the route's metadata
 * (path, Swagger, guards) is carried over to the wrapped method.
 */
export function DegradedRead<C extends object>(known?: KnownState<C>): MethodDecorator {
  return (target, key, descriptor: PropertyDescriptor) => {
    const route = `${target.constructor.name}.${String(key)}`;
    const handler = descriptor.value as (this: C, ...args: unknown[]) => unknown;
    const wrapped = async function (this: C, ...args: unknown[]): Promise<unknown> {
      try {
        return await handler.apply(this, args);
      } catch (error) {
        if (error instanceof HttpException) throw error;
        throw new HttpException(await degradedBody(this, error, route, known), 503);
      }
    };
    for (const metadataKey of Reflect.getMetadataKeys(handler)) {
      Reflect.defineMetadata(metadataKey, Reflect.getMetadata(metadataKey, handler), wrapped);
    }
    Object.defineProperty(wrapped, 'name', { value: handler.name });
    descriptor.value = wrapped;
    return descriptor;
  };
}

/** The 503 body: the cause of `error`, and what the controller knows without its dependencies. */
export async function degradedBody<C>(
  controller: C,
  error: unknown,
  route: string,
  known?: KnownState<C>,
): Promise<DegradedReadBody> {
  const cause = causeOf(error);
  logger.warn(`${route}: answered from memory (degraded): ${cause.code}: ${cause.message}`);
  let state: object = {};
  try {
    state = known ? await known(controller) : {};
  } catch (knownError) {
    logger.warn(`${route}: the in-memory state failed too: ${causeOf(knownError).message}`);
  }
  return {
    ...state,
    statusCode: HttpStatus.SERVICE_UNAVAILABLE,
    error: 'Service Unavailable',
    message: `answered from memory: a dependency is unreachable (${cause.code})`,
    degraded: { cause },
  };
}

function causeOf(error: unknown): DegradedCause {
  const candidate = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code =
    typeof candidate?.code === 'string' && candidate.code !== ''
      ? candidate.code
      : typeof candidate?.name === 'string'
        ? candidate.name
        : 'Error';
  const message =
    typeof candidate?.message === 'string' && candidate.message !== ''
      ? candidate.message
      : String(error);
  return { code, message, at: new Date().toISOString() };
}
