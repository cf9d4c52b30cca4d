import { OperatorToken } from './operator-token';

describe('OperatorToken', () => {
  const token = new OperatorToken('a-token-of-twenty-four-ch');

  it('matches the token itself and nothing else', () => {
    expect(token.matches('a-token-of-twenty-four-ch')).toBe(true);
    for (const other of ['', 'a', 'a-token-of-twenty-four-c', 'a-token-of-twenty-four-chX', 'ü']) {
      expect(token.matches(other)).toBe(false);
    }
  });

  it('refuses a token shorter than 24 characters', () => {
    expect(() => new OperatorToken('x'.repeat(23))).toThrow(/at least 24/);
    expect(() => new OperatorToken('x'.repeat(24))).not.toThrow();
  });
});
