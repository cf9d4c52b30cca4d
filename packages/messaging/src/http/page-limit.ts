import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * The validation of a list route's optional `limit` query parameter: a whole number from 1 to
 * `max`, converted from the query string's text. The property's initializer is its default;
 * the OpenAPI description stays beside it (`@ApiPropertyOptional`).
 */
export function PageLimit(max: number): PropertyDecorator {
  // Applied in the order the stacked decorators were, so the error messages read the same.
  const rules = [IsOptional(), Type(() => Number), IsInt(), Min(1), Max(max)].reverse();
  return (target, property) => {
    for (const rule of rules) rule(target, property as string);
  };
}
