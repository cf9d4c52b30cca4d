import { plainToInstance } from 'class-transformer';
import {
  getMetadataStorage,
  validateSync,
  ValidationError,
  ValidationTypes,
} from 'class-validator';
import { CodedError } from './coded-error';
import { PayloadClass } from './event-definition';
import { compileValidCheck, ValidCheck } from './valid-check';

/** One field that failed validation. */
export interface FieldError {
  /** Dotted path, e.g. `payload.amount`. */
  path: string;
  /** class-validator constraint name → message. */
  constraints: Record<string, string>;
}

/** Thrown when an event or its payload is invalid; `fieldErrors` says which fields and why. */
export class EventValidationError extends CodedError<'INVALID_EVENT'> {
  override readonly name = 'EventValidationError';

  constructor(
    readonly eventType: string,
    readonly fieldErrors: FieldError[],
  ) {
    super(
      'INVALID_EVENT',
      `${eventType} is invalid: ` +
        fieldErrors.map((e) => `${e.path} (${Object.values(e.constraints).join('; ')})`).join(', '),
    );
  }
}

/** How strictly `validatePlain` reads. */
export interface ValidateOptions {
  /**
   * Tolerant reader: properties the class does not declare are accepted and kept (a newer
   * writer may have added them). Default false: they are errors, as producers need.
   */
  allowUnknownFields?: boolean;
}

/**
 * Validates a plain object against a class-validator class: unknown properties are errors
 * (unless `allowUnknownFields`), nothing is converted (class-transformer only builds the
 * instances of @ValidateNested properties, from their @Type). Returns the typed instance and
 * the field errors.
 */
export function validatePlain<T extends object>(
  cls: PayloadClass<T>,
  plain: unknown,
  pathPrefix = '',
  options: ValidateOptions = {},
): { value: T; errors: FieldError[] } {
  const allowUnknown = options.allowUnknownFields === true;
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return {
      value: plain as T,
      errors: [{ path: pathPrefix || '(root)', constraints: { isObject: 'must be an object' } }],
    };
  }
  // class-validator finds the rules through `instance.constructor` and looks property names up
  // in a plain object: an own key that Object.prototype also has (`constructor`, `__proto__`,
  // `hasOwnProperty`, …) would make it validate against something else, throw, or let the key
  // pass unreported. Such keys are reported here and left out.
  const keys = Object.keys(plain);
  if (keys.some((key) => key in Object.prototype)) {
    const shadowing = keys.filter((key) => key in Object.prototype);
    const rest = Object.fromEntries(
      Object.entries(plain).filter(([key]) => !(key in Object.prototype)),
    );
    const result = validatePlain(cls, rest, pathPrefix, options);
    const notAllowed = shadowing.map((key) => ({
      path: pathPrefix ? `${pathPrefix}.${key}` : key,
      constraints: { whitelistValidation: `property ${key} should not exist` },
    }));
    return { value: result.value, errors: [...notAllowed, ...result.errors] };
  }
  const value = instanceOf(cls, plain);
  // Most input is valid: a compiled check says so at a fraction of the executor's cost, and
  // only a failed (or uncompilable) check runs class-validator for the field errors.
  if (validCheckOf(cls)?.(value, allowUnknown)) return { value, errors: [] };
  const errors = validateSync(value, {
    whitelist: !allowUnknown,
    forbidNonWhitelisted: !allowUnknown,
    forbidUnknownValues: true,
  });
  return { value, errors: fieldErrorsOf(errors, pathPrefix) };
}

/** Per class: its compiled check, or null when it has none (compileValidCheck). */
const validChecks = new WeakMap<object, ValidCheck | null>();

function validCheckOf(cls: PayloadClass<object>): ValidCheck | undefined {
  let check = validChecks.get(cls);
  if (check === undefined) {
    check = compileValidCheck(cls) ?? null;
    validChecks.set(cls, check);
  }
  return check ?? undefined;
}

/** Per class: whether it declares nested validation (then class-transformer builds it). */
const nestedClasses = new WeakMap<object, boolean>();

/**
 * The object class-validator checks: `plain`'s own properties on an instance of `cls`. A flat
 * class needs nothing more, and a copy onto `new cls()` costs a fraction of class-transformer's
 * plainToInstance (which walks its metadata for every property, and was a third of the
 * consumers' validation time). A class with @ValidateNested properties needs their values as
 * instances of their own classes: class-transformer builds those.
 */
function instanceOf<T extends object>(cls: PayloadClass<T>, plain: object): T {
  let nested = nestedClasses.get(cls);
  if (nested === undefined) {
    nested = getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', true, false)
      .some((m) => m.type === ValidationTypes.NESTED_VALIDATION);
    nestedClasses.set(cls, nested);
  }
  if (nested) return plainToInstance(cls, plain);
  // No own key of `plain` is one of Object.prototype's (validatePlain took those out), so
  // assigning cannot swap the prototype ("__proto__") or the constructor.
  return Object.assign(new cls(), plain);
}

/** class-validator's error tree as a flat list of field errors with dotted paths. */
export function fieldErrorsOf(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ path, constraints: error.constraints }] : [];
    return [...own, ...fieldErrorsOf(error.children ?? [], path)];
  });
}
