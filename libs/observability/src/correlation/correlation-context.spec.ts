import {
  acceptCorrelationId,
  currentCorrelationId,
  runWithCorrelation,
} from './correlation-context';

describe('correlation context', () => {
  it('keeps a well-formed caller id', () => {
    expect(acceptCorrelationId('order-42:pay.1_a')).toBe('order-42:pay.1_a');
    expect(acceptCorrelationId(['first', 'second'])).toBe('first');
  });

  it('replaces a missing, malformed or oversized id with a new UUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const bad of [undefined, '', 'has space', 'x'.repeat(129), 'new\nline', 42]) {
      expect(acceptCorrelationId(bad)).toMatch(uuid);
    }
  });

  it('is visible inside the run, across awaits, and gone after it', async () => {
    expect(currentCorrelationId()).toBeUndefined();
    const seen = await runWithCorrelation('c-1', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentCorrelationId();
    });
    expect(seen).toBe('c-1');
    expect(currentCorrelationId()).toBeUndefined();
  });
});
