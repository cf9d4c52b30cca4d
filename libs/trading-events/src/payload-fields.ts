import { IsInt, IsISO4217CurrencyCode, IsString, Length, Max, Min } from 'class-validator';
import { IsStrictIso8601 } from '@outbox-inbox/messaging';

/** The largest amount a payload carries, in minor units: far inside Number's exact range. */
export const MAX_MINOR_UNITS = 1_000_000_000_000;

type Rule = PropertyDecorator;

function all(...rules: Rule[]): Rule {
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** A bigint id as a string (order id, fulfillment id). */
export const EntityId = (): Rule => all(IsString(), Length(1, 32));

/** A short opaque reference: user id, payment id, notification id, coupon code. */
export const Reference = (): Rule => all(IsString(), Length(1, 64));

/** Money in integer minor units (cents); `min` 0 allows a free item. */
export const MinorUnits = (min = 1): Rule => all(IsInt(), Min(min), Max(MAX_MINOR_UNITS));

/** An ISO 4217 currency code. */
export const Currency = (): Rule => IsISO4217CurrencyCode();

/** A strict ISO 8601 timestamp (class-validator's verdict, fast for `toISOString()`'s form). */
export const Timestamp = (): Rule => IsStrictIso8601();

/** Free text for people, e.g. a cancellation reason. */
export const Reason = (): Rule => all(IsString(), Length(1, 256));
