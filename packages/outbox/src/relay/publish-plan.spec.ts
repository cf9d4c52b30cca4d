import { ClaimedRow } from '../store/outbox-row';
import { planPublish, toTopicBatches } from './publish-plan';

const row = (
  aggregateType: string,
  aggregateId: string,
  version: number,
  size = 10,
): ClaimedRow => ({
  id: `${aggregateId}-${version}`,
  aggregateType,
  aggregateId,
  aggregateVersion: version,
  eventType: 'E',
  eventKey: `E:${aggregateId}:${version}`,
  payload: 'x'.repeat(size),
  headers: { 'event-key': `E:${aggregateId}:${version}` },
  retryCount: 0,
});
const topicOf = (r: ClaimedRow) => {
  if (r.aggregateType === 'Nowhere') throw new Error('no mapping');
  return `t.${r.aggregateType.toLowerCase()}`;
};

describe('planPublish', () => {
  const rows = [
    row('Parcel', 'a', 1),
    row('Parcel', 'a', 2),
    row('Ghost', 'g', 1),
    row('Ghost', 'g', 2),
    row('Parcel', 'big', 1, 5_000),
    row('Parcel', 'big', 2),
    row('Nowhere', 'n', 1),
  ];

  it('under "block", makes unpublishable rows poison and holds their aggregate’s later rows', () => {
    const plan = planPublish(rows, topicOf, new Set(['t.ghost']), {
      maxMessageBytes: 1_000,
      deadPolicy: 'block',
    });
    expect(plan.send.map((s) => s.row.id)).toEqual(['a-1', 'a-2']);
    expect(plan.poison.map((p) => [p.row.id, p.reason])).toEqual([
      ['big-1', expect.stringMatching(/over the 1000-byte limit/)],
      ['n-1', 'no topic for aggregate type Nowhere: no mapping'],
    ]);
    expect(plan.blocked.map((r) => r.id)).toEqual(['big-2']);
  });

  it('under "pass", sends the later rows that can be published', () => {
    const plan = planPublish(rows, topicOf, new Set(['t.ghost']), {
      maxMessageBytes: 1_000,
      deadPolicy: 'pass',
    });
    expect(plan.send.map((s) => s.row.id)).toEqual(['a-1', 'a-2', 'big-2']);
    expect(plan.poison.map((p) => p.row.id)).toEqual(['big-1', 'n-1']);
    expect(plan.blocked).toEqual([]);
  });

  it.each(['block', 'pass'] as const)(
    'under "%s", keeps rows whose topic is missing, in order, to wait for it, never as poison',
    (deadPolicy) => {
      const plan = planPublish(rows, topicOf, new Set(['t.ghost']), {
        maxMessageBytes: 1_000,
        deadPolicy,
      });
      expect(plan.waiting.map((w) => [w.row.id, w.topic])).toEqual([
        ['g-1', 't.ghost'],
        ['g-2', 't.ghost'],
      ]);
      expect(plan.poison.map((p) => p.row.id)).not.toContain('g-1');
    },
  );

  it('keys messages by aggregate id and groups them by topic in send order', () => {
    const plan = planPublish(
      [row('Parcel', 'a', 1), row('Shipment', 'f', 1), row('Parcel', 'a', 2)],
      topicOf,
      new Set(),
      {
        maxMessageBytes: 1_000,
        deadPolicy: 'block',
      },
    );
    expect(toTopicBatches(plan.send)).toEqual([
      {
        topic: 't.parcel',
        messages: [
          expect.objectContaining({ key: 'a', value: 'x'.repeat(10) }),
          expect.objectContaining({ key: 'a' }),
        ],
      },
      { topic: 't.shipment', messages: [expect.objectContaining({ key: 'f' })] },
    ]);
  });
});
