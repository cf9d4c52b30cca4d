import { relayStall } from './relay-stall';

describe('relayStall', () => {
  const now = 1_000_000;

  it('passes a relay that started its round recently', () => {
    expect(relayStall({ running: true, lastTickAt: now - 500, idleUntil: 0 }, 1_000, now)).toBe(
      undefined,
    );
  });

  it('passes a relay waiting out a backoff longer than the stall time', () => {
    const heartbeat = { running: true, lastTickAt: now - 50_000, idleUntil: now + 10_000 };
    expect(relayStall(heartbeat, 1_000, now)).toBe(undefined);
  });

  it('flags a round that has been going on for longer than the stall time', () => {
    const heartbeat = { running: true, lastTickAt: now - 5_000, idleUntil: 0 };
    expect(relayStall(heartbeat, 1_000, now)).toBe('the relay loop has not gone round for 5000 ms');
  });

  it('flags a wait that overran its end', () => {
    const heartbeat = { running: true, lastTickAt: now - 9_000, idleUntil: now - 2_000 };
    expect(relayStall(heartbeat, 1_000, now)).toMatch(/2000 ms/);
  });

  it('flags a relay that is not running', () => {
    expect(relayStall({ running: false, lastTickAt: now, idleUntil: 0 }, 1_000, now)).toBe(
      'the relay is not running',
    );
  });
});
