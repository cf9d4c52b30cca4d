import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it('answers what the work answers when it settles in time', async () => {
    await expect(withTimeout(Promise.resolve(7), 1_000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow(
      'refused',
    );
  });

  it('rejects, naming the limit, when the work does not settle in time', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(withTimeout(never, 20)).rejects.toThrow('no answer within 20 ms');
  });
});
