import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { PayloadClass } from './event-definition';

/** One field that failed validation. */
export interface FieldError {
  /** Dotted path, e.g. `payload.amount`. */
  path: string;
  /** class-validator constraint name → message. */
  constraints: Record<string, string>;
}

/** Thrown when an event or its payload is invalid; `fieldErrors` says which fields and why. */
export class EventValidationError extends Error {
  readonly code = 'EVENT_INVALID' as const;

  constructor(
    readonly eventType: string,
    readonly fieldErrors: FieldError[],
  ) {
    super(
      `${eventType} is invalid: ` +
        fieldErrors.map((e) => `${e.path} (${Object.values(e.constraints).join('; ')})`).join(', '),
    );
    this.name = 'EventValidationError';
  }
}

/**
 * Validates a plain object against a class-validator class: unknown properties are errors,
 * nothing is converted implicitly. Returns the typed instance and the field errors.
 */
export function validatePlain<T extends object>(
  cls: PayloadClass<T>,
  plain: unknown,
  pathPrefix = '',
): { value: T; errors: FieldError[] } {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return {
      value: plain as T,
      errors: [{ path: pathPrefix || '(root)', constraints: { isObject: 'must be an object' } }],
    };
  }
  const value = plainToInstance(cls, plain);
  const errors = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  return { value, errors: flatten(errors, pathPrefix) };
}

function flatten(errors: ValidationError[], prefix: string): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ path, constraints: error.constraints }] : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}
