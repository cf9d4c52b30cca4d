import { buildMessage, isISO8601, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * The form `Date.prototype.toISOString` writes, which is what every producer here sends, for
 * the years 1000–9999 (validator builds a Date from the year's number, and reads years
 * below 1000 its own way).
 */
const CANONICAL = /^([1-9]\d{3})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * class-validator's `isISO8601(value, { strict: true })`, answered without its regular
 * expression and its Date round trip for the one form this project writes (`toISOString`):
 * every event crossing the outbox or the inbox carries an `occurredAt`, and that check was a
 * third of an envelope's validation. For that form the verdict is validator's: the month is
 * 01–12 and the day exists in it (leap years as the Gregorian calendar has them). Any other
 * string gets validator's own answer.
 */
export function isStrictIso8601(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = CANONICAL.exec(value);
  if (match === null) return isISO8601(value, { strict: true });
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/**
 * `@IsISO8601({ strict: true })` with the fast path of isStrictIso8601: the same constraint
 * name (`isIso8601`), the same message, the same verdict.
 */
export function IsStrictIso8601(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIso8601',
      constraints: [{ strict: true }],
      validator: {
        validate: (value) => isStrictIso8601(value),
        defaultMessage: buildMessage(
          (eachPrefix) => eachPrefix + '$property must be a valid ISO 8601 date string',
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}
