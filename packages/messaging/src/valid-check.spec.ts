import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsString,
  Validate,
  ValidateNested,
  validateSync,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { EventEnvelope, TraceContext } from './envelope';
import { PayloadClass } from './event-definition';
import { ParcelShippedV1 } from '@outbox-inbox/test-kit';
import { compileValidCheck } from './valid-check';
import { validatePlain } from './validation';

/** Values that pass or fail the rules the contracts use, at and around their limits. */
const POOL: unknown[] = [
  undefined,
  null,
  true,
  {},
  [],
  { a: 1 },
  '',
  'a',
  '42',
  'acc-1',
  'bad id!',
  ...[1, 5, 32, 33, 64, 65, 128, 129, 190, 191, 256, 257, 512, 513].map((n) => 'x'.repeat(n)),
  'EUR',
  'euro',
  'USD',
  '0b7c1f5e-8d2a-4c3e-9f1a-2b3c4d5e6f70',
  '0b7c1f5e-8d2a-4c3e-9f1a-2b3c4d5e6f7',
  '2026-12-01T10:00:00.000Z',
  '2026-02-30T10:00:00Z',
  '2026-12-01',
  'not a date',
  '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
  'Parcel',
  'ParcelShipped',
  'parcel',
  'ParcelShipped:42:1',
  'EXPRESS',
  'express',
  0,
  1,
  -1,
  1.5,
  1999,
  2_147_483_647,
  2_147_483_648,
  1e12,
  1e12 + 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function classVerdict(cls: PayloadClass<object>, plain: object): boolean {
  // class-validator cannot be given an own `constructor`; validatePlain reports it.
  if (Object.hasOwn(plain, 'constructor')) return false;
  return validateSync(Object.assign(new cls(), plain), OPTIONS).length === 0;
}

/** Per property of `cls`, the pool values class-validator accepts there. */
function goodValues(cls: PayloadClass<object>): Map<string, unknown[]> {
  const properties = Object.keys(
    Object.fromEntries(
      validateSync(new cls(), OPTIONS)
        .filter((e) => e.property)
        .map((e) => [e.property, true]),
    ),
  );
  const good = new Map<string, unknown[]>();
  for (const property of properties) {
    good.set(
      property,
      POOL.filter((value) =>
        validateSync(Object.assign(new cls(), { [property]: value }), OPTIONS).every(
          (e) => e.property !== property,
        ),
      ),
    );
  }
  return good;
}

const CLASSES: Array<[string, PayloadClass<object>]> = [
  ['EventEnvelope', EventEnvelope],
  ['TraceContext', TraceContext],
  [ParcelShippedV1.payload.name, ParcelShippedV1.payload],
];

describe('compileValidCheck', () => {
  it.each(CLASSES)(
    '%s: gives class-validator verdict on 3,000 valid and mutated objects',
    (_name, cls) => {
      const check = compileValidCheck(cls)!;
      expect(check).toBeDefined();
      const good = goodValues(cls);
      const next = random(cls.name.length * 7919);
      const pick = <T>(values: T[]) => values[Math.floor(next() * values.length)];
      const verdicts = { valid: 0, invalid: 0 };
      for (let i = 0; i < 3_000; i++) {
        const plain: Record<string, unknown> = {};
        for (const [property, values] of good) {
          // A property the pool cannot satisfy is left out (only optional ones may be).
          if (values.length > 0) plain[property] = pick(values);
        }
        const mutations = Math.floor(next() * 4);
        for (let m = 0; m < mutations; m++) {
          const roll = next();
          if (roll < 0.6) plain[pick([...good.keys()])] = pick(POOL);
          else if (roll < 0.85) delete plain[pick([...good.keys()])];
          else plain[pick(['extra', 'payload2', 'constructor'])] = pick(POOL);
        }
        const expected = classVerdict(cls, plain);
        expect({ plain, verdict: check(Object.assign(new cls(), plain)) }).toEqual({
          plain,
          verdict: expected,
        });
        expect(validatePlain(cls, plain).errors.length === 0).toBe(expected);
        verdicts[expected ? 'valid' : 'invalid'] += 1;
      }
      // Both verdicts are exercised, so agreement is not agreement on one answer.
      expect(verdicts.valid).toBeGreaterThan(300);
      expect(verdicts.invalid).toBeGreaterThan(300);
    },
  );

  it('leaves classes it does not cover to class-validator', () => {
    @ValidatorConstraint({ async: true })
    class Later implements ValidatorConstraintInterface {
      validate(): Promise<boolean> {
        return Promise.resolve(true);
      }
    }
    class Leaf {
      @IsString() name!: string;
    }
    class Nested {
      @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
    }
    class Each {
      @IsString({ each: true }) names!: string[];
    }
    class Async {
      @Validate(Later) name!: string;
    }
    class Bare {
      name!: string;
    }
    expect(compileValidCheck(Leaf)).toBeDefined();
    for (const cls of [Nested, Each, Async, Bare]) expect(compileValidCheck(cls)).toBeUndefined();
    // Still validated, by class-validator itself.
    expect(validatePlain(Nested, { leaf: { name: 7 } }).errors).toEqual([
      { path: 'leaf.name', constraints: { isString: 'name must be a string' } },
    ]);
    expect(validatePlain(Bare, { name: 'x' }).errors).toHaveLength(1);
  });
});
