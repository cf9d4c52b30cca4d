import { renderAnswer } from './render-answer';

const SINCE_START = {
  applied: 27,
  ignored: 0,
  stale: 1,
  parked: 2,
  duplicates: 33,
  drained: 2,
  retries: 4,
  deadLettered: 0,
  pauses: 1,
  unknownEventTypes: 0,
  heldNewerSchema: 0,
};

describe('renderAnswer', () => {
  it('labels the inbox table counts apart from the counters since this process started', () => {
    const text = renderAnswer('GET', '/inbox/stats', {
      consumer: 'fulfillment-service',
      inbox: { applied: 40, ignored: 0, stale: 1, parked: 0 },
      parkedNow: 0,
      openGaps: [],
      deadLetterTopicMessages: 0,
      blocked: { seconds: 0, partitions: [] },
      sinceStart: SINCE_START,
    });
    const lines = text.split('\n');
    const header = lines.find((l) => l.startsWith('outcome'))!;
    expect(header).toMatch(/in the inbox table\s+since this process started/);
    // 40 sits under the table's column, 27 under the process's.
    const applied = lines.find((l) => l.startsWith('applied'))!;
    expect(applied.indexOf('40') + 2).toBe(header.indexOf('since') - 2);
    expect(applied.trimEnd().endsWith('27')).toBe(true);
    expect(lines.find((l) => l.startsWith('duplicates'))).toMatch(/\s-\s+33$/);
    expect(text).toContain('blocked partitions (paused while a dependency is down): 0');
    expect(text).toContain('since this process started: counters of the instance that answered');
  });

  it('says DEGRADED with the cause, and shows the blocked partitions it knows', () => {
    const text = renderAnswer('GET', '/inbox/stats', {
      statusCode: 503,
      consumer: 'accounting-service',
      deadLetterTopicMessages: 0,
      blocked: {
        seconds: 12.4,
        partitions: [
          {
            topic: 'trading.order',
            partition: 3,
            since: 'T',
            rounds: 5,
            lastError: 'ECONNREFUSED',
          },
        ],
      },
      sinceStart: SINCE_START,
      degraded: { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED', at: 'T' } },
    });
    expect(text.split('\n')[0]).toMatch(
      /^DEGRADED: the service answered from memory.*ECONNREFUSED/,
    );
    expect(text).toContain(
      'blocked partitions (paused while a dependency is down): 1, the oldest for 12 s',
    );
    expect(text).toMatch(/trading\.order\s+3\s+T\s+5\s+ECONNREFUSED/);
    expect(text).toMatch(/open gaps .*: -/);
  });

  it('lists DEAD rows as a table', () => {
    const text = renderAnswer('GET', '/outbox/dead?limit=100', [
      {
        id: '7',
        eventType: 'OrderPaid',
        aggregateType: 'Order',
        aggregateId: '42',
        aggregateVersion: 3,
        retryCount: 10,
        lastError: 'poisoned',
        updatedAt: '2026-12-05T10:00:00.000Z',
      },
    ]);
    expect(text.split('\n')[0]).toMatch(
      /^id\s+event\s+aggregate\s+version\s+attempts\s+last error\s+updated$/,
    );
    expect(text).toMatch(/^7\s+OrderPaid\s+Order:42\s+3\s+10\s+poisoned\s+2026/m);
  });

  it('prints any other answer as field and value', () => {
    expect(renderAnswer('POST', '/outbox/dead/requeue', { requeued: 2 })).toBe(
      'field     value\n--------  -----\nrequeued      2',
    );
  });
});
