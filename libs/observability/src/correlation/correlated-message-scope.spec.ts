import { Writable } from 'node:stream';
import pino from 'pino';
import { pinoOptions } from '../logging/pino-options';
import { CorrelatedMessageScope } from './correlated-message-scope';
import { currentCorrelationId } from './correlation-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A pino logger with the services' mixin, writing its lines to `lines`. */
function serviceLogger(lines: string[]) {
  const { mixin } = pinoOptions('test-service', 'log').pinoHttp as { mixin: () => object };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return pino({ mixin }, sink);
}

describe('CorrelatedMessageScope', () => {
  const scope = new CorrelatedMessageScope();

  it('settles a message under its well-formed correlation-id header', async () => {
    const seen = await scope.run({ 'correlation-id': 'order-42:pay.1_a' }, async () =>
      currentCorrelationId(),
    );
    expect(seen).toBe('order-42:pay.1_a');
  });

  it('replaces a malformed or oversized header with a fresh id, as HTTP does, and never logs it', async () => {
    for (const bad of ['has space', 'forged\n{"level":60}', 'x'.repeat(129), '']) {
      const lines: string[] = [];
      const logger = serviceLogger(lines);
      const seen = await scope.run({ 'correlation-id': bad }, async () => {
        logger.info('dead-lettered');
        return currentCorrelationId();
      });
      expect(seen).toMatch(UUID);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ correlationId: seen, msg: 'dead-lettered' });
      if (bad !== '') expect(lines[0]).not.toContain(JSON.stringify(bad).slice(1, -1));
    }
  });

  it('gives each malformed header an id of its own', async () => {
    const ids = await Promise.all(
      [1, 2].map(() =>
        scope.run({ 'correlation-id': 'bad id' }, async () => currentCorrelationId()),
      ),
    );
    expect(new Set(ids).size).toBe(2);
  });

  it('settles a message without the header under no correlation id', async () => {
    expect(
      await scope.run({ 'event-id': 'e1' }, async () => currentCorrelationId()),
    ).toBeUndefined();
  });
});
