import { isDuplicateKeyError, isTransientDbError } from '../transient-error';

/** A TypeORM QueryFailedError's shape: the driver's error under `driverError`. */
const wrapped = (driverError: object) => Object.assign(new Error('query failed'), { driverError });

describe('isTransientDbError', () => {
  it('knows a deadlock, a lost connection and a read-only primary, also wrapped', () => {
    expect(isTransientDbError({ errno: 1213 })).toBe(true);
    expect(isTransientDbError(wrapped({ code: 'PROTOCOL_CONNECTION_LOST' }))).toBe(true);
    expect(isTransientDbError(new Error('x', { cause: wrapped({ errno: 1290 }) }))).toBe(true);
    expect(
      isTransientDbError(new Error("Can't add new command when connection is in closed state")),
    ).toBe(true);
  });

  it('is false for a constraint violation, a syntax error, nothing, and beyond four links', () => {
    expect(isTransientDbError(wrapped({ errno: 1062, code: 'ER_DUP_ENTRY' }))).toBe(false);
    expect(isTransientDbError({ errno: 1064 })).toBe(false);
    expect(isTransientDbError(undefined)).toBe(false);
    const deep = [1, 2, 3, 4].reduce<object>((e) => ({ cause: e }), { errno: 1213 });
    expect(isTransientDbError(deep)).toBe(false);
  });
});

describe('isDuplicateKeyError', () => {
  it('finds ER_DUP_ENTRY by number or code, also wrapped', () => {
    expect(isDuplicateKeyError(wrapped({ errno: 1062 }))).toBe(true);
    expect(isDuplicateKeyError({ cause: { code: 'ER_DUP_ENTRY' } })).toBe(true);
    expect(isDuplicateKeyError(wrapped({ errno: 1213 }))).toBe(false);
  });
});
