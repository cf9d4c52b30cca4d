import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import { PayloadClass } from './event-definition';

/** True when class-validator would find nothing wrong with `instance`. */
/** Pass/fail; `allowUnknown` passes own properties the class does not declare (tolerant reader). */
export type ValidCheck = (instance: object, allowUnknown?: boolean) => boolean;

interface ConstraintRule {
  validate(value: unknown, args: ValidationArguments): unknown;
  constraints: unknown[];
}

interface PropertyRules {
  name: string;
  /** @IsOptional and other conditions: when one is false, the property is not checked at all. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** Every constraint (@IsDefined included) must hold; their order cannot change the verdict. */
  rules: ConstraintRule[];
}

interface MetadataView {
  type: string;
  propertyName: string;
  constraints: unknown[];
  constraintCls: object;
  each?: boolean;
  validateIf?: unknown;
}

interface ConstraintView {
  async: boolean;
  instance: { validate(value: unknown, args: ValidationArguments): unknown };
}

/** The metadata kinds a compiled check covers; any other makes the class fall back. */
const COVERED: ReadonlySet<string> = new Set([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.WHITELIST,
]);

/**
 * Compiles `cls`'s class-validator rules once into a pass/fail check that gives the verdict of
 * `validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues:
 * true })` with no groups: unknown own properties fail; per property, conditions (@IsOptional)
 * gate the rest; each constraint's own `validate` runs with the arguments class-validator would
 * pass. Every event crossing the outbox or the inbox is validated, and most are valid: the
 * executor re-reads and regroups the class's metadata and builds an error object per property
 * on every call, which was three quarters of an inbox consumer's validation CPU. The check only
 * says yes or no; errors still come from class-validator.
 *
 * Undefined when the class has no rules (class-validator reports an unknown value) or uses
 * anything else: nested or promise validation, `each`, `validateIf`, async constraints.
 *
 * The check is a snapshot taken on first use: the class's rules as registered by then (its
 * decorators ran when it was defined) and each constraint's instance from class-validator's
 * container. Rules added to a class afterwards, or a container swapped in later with
 * `useContainer`, are not seen.
 */
export function compileValidCheck(cls: PayloadClass<object>): ValidCheck | undefined {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(
    cls,
    undefined as unknown as string,
    false,
    false,
    undefined,
  ) as unknown as MetadataView[];
  if (metadatas.length === 0) return undefined;
  const byProperty = new Map<string, PropertyRules>();
  for (const metadata of metadatas) {
    if (!COVERED.has(metadata.type) || metadata.each || metadata.validateIf) return undefined;
    let property = byProperty.get(metadata.propertyName);
    if (!property) {
      property = { name: metadata.propertyName, conditions: [], rules: [] };
      byProperty.set(metadata.propertyName, property);
    }
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      property.conditions.push(metadata.constraints[0] as PropertyRules['conditions'][number]);
      continue;
    }
    if (metadata.type === ValidationTypes.WHITELIST) continue;
    const constraints = storage.getTargetValidatorConstraints(
      metadata.constraintCls as () => void,
    ) as unknown as ConstraintView[];
    for (const constraint of constraints) {
      // validateSync skips async constraints; a check cannot give their verdict either.
      if (constraint.async) return undefined;
      property.rules.push({
        validate: constraint.instance.validate.bind(constraint.instance),
        constraints: metadata.constraints,
      });
    }
  }
  const properties = [...byProperty.values()];
  const targetName = cls.name;
  return (instance, allowUnknown = false) => {
    if (!allowUnknown)
      for (const key of Object.keys(instance)) if (!byProperty.has(key)) return false;
    const object = instance as Record<string, unknown>;
    for (const { name, conditions, rules } of properties) {
      const value = object[name];
      // Conditions are predicates on the value: the first false one decides, as their
      // conjunction does in class-validator.
      if (!conditions.every((condition) => condition(instance, value))) continue;
      for (const { validate, constraints } of rules) {
        if (
          !validate(value, { targetName, property: name, object: instance, value, constraints })
        ) {
          return false;
        }
      }
    }
    return true;
  };
}
