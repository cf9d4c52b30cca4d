import { OperatorTokens, parseNamedTokens } from './operator-tokens';

describe('OperatorTokens', () => {
  const alice = 'alices-token-of-24-characters';
  const bob = 'bobs-token:of-24-characters!';
  const single = 'the-single-token-of-24-chars';

  it('names the holder of each token, OPS_API_TOKEN as "operator"', () => {
    const tokens = OperatorTokens.fromEnv(single, `alice:${alice}, bob:${bob}`);
    expect(tokens.identify(alice)).toBe('alice');
    expect(tokens.identify(bob)).toBe('bob');
    expect(tokens.identify(single)).toBe('operator');
    expect(tokens.identify('alices-token-of-24-characterz')).toBeUndefined();
    expect(tokens.identify('')).toBeUndefined();
  });

  it('needs at least one token, each long enough', () => {
    expect(() => OperatorTokens.fromEnv(undefined, undefined)).toThrow(/at least one token/);
    expect(() => OperatorTokens.fromEnv(undefined, 'alice:short')).toThrow(/at least 24/);
    expect(() => parseNamedTokens(`:${alice}`)).toThrow(/name:token/);
  });
});
