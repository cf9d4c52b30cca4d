import { decideVersion } from './version-decision';

describe('decideVersion', () => {
  it('applies the next version', () => {
    expect(decideVersion(3, 4)).toBe('apply');
  });

  it('skips a version already applied or older', () => {
    expect(decideVersion(3, 3)).toBe('stale');
    expect(decideVersion(3, 1)).toBe('stale');
  });

  it('parks a version that leaves a gap', () => {
    expect(decideVersion(3, 5)).toBe('park');
  });

  it('expects version 1 of an unseen aggregate, and parks any later one', () => {
    expect(decideVersion(undefined, 1)).toBe('apply');
    expect(decideVersion(undefined, 3)).toBe('park');
  });
});
