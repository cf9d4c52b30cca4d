import { decideVersion } from './version-decision';

describe('decideVersion', () => {
  it('applies the next version', () => {
    expect(decideVersion(3, 4, 'version-1')).toBe('apply');
  });

  it('skips a version already applied or older', () => {
    expect(decideVersion(3, 3, 'version-1')).toBe('stale');
    expect(decideVersion(3, 1, 'first-seen')).toBe('stale');
  });

  it('parks a version that leaves a gap', () => {
    expect(decideVersion(3, 5, 'version-1')).toBe('park');
  });

  it('expects version 1 of an unseen aggregate by default', () => {
    expect(decideVersion(undefined, 1, 'version-1')).toBe('apply');
    expect(decideVersion(undefined, 3, 'version-1')).toBe('park');
  });

  it('accepts the first version seen when told to', () => {
    expect(decideVersion(undefined, 3, 'first-seen')).toBe('apply');
  });
});
