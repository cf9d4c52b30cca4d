import { DeadLetterHeader } from '../dead-letter/dead-letter-headers';
import { TopicMessage } from '@outbox-inbox/messaging';
import { InboxError } from '../inbox.errors';
import {
  checkReplayRequest,
  dryRunResult,
  planReplay,
  ReplayRequest,
  replayMessage,
} from './replay-plan';

const scope = { retryTopic: 'c.retry', topics: ['parcels'] };

/** A dead letter at `offset` of partition 0, failed while read from `sourceTopic`. */
function deadLetter(
  offset: number,
  { sourceTopic = 'parcels', eventType = 'ParcelShipped', errorCode = 'HANDLER_FAILED' } = {},
): TopicMessage {
  return {
    partition: 0,
    offset: String(offset),
    timestamp: '0',
    key: Buffer.from(`p${offset}`),
    value: Buffer.from(`{"n":${offset}}`),
    headers: {
      'event-type': eventType,
      [DeadLetterHeader.errorCode]: errorCode,
      [DeadLetterHeader.sourceTopic]: sourceTopic,
    },
  };
}

const offsetsOf = (letters: TopicMessage[]) => letters.map((m) => Number(m.offset));
const nothingReplayed = new Set<string>();

describe('planReplay', () => {
  const topic = [
    deadLetter(0),
    deadLetter(1, { eventType: 'ParcelLost' }),
    deadLetter(2, { errorCode: 'NOT_JSON' }),
    deadLetter(3, { sourceTopic: 'c.retry' }),
  ];

  it('selects every dead letter with `all`, in topic order', () => {
    const plan = planReplay(topic, nothingReplayed, { all: true }, scope);
    expect(offsetsOf(plan.toPublish)).toEqual([0, 1, 2, 3]);
    expect(plan.result).toEqual({
      matched: 4,
      replayed: [],
      skippedAlreadyReplayed: 0,
      skippedNotOwnTopic: [],
    });
  });

  it.each<[string, ReplayRequest, number[]]>([
    ['named messages', { messages: [{ partition: 0, offset: '2' }] }, [2]],
    ['an event type', { eventType: 'ParcelLost' }, [1]],
    ['an error code', { errorCode: 'NOT_JSON' }, [2]],
    [
      'an event type and an error code, both',
      { eventType: 'ParcelLost', errorCode: 'NOT_JSON' },
      [],
    ],
  ])('selects by %s', (_what, request, offsets) => {
    const plan = planReplay(topic, nothingReplayed, request, scope);
    expect(offsetsOf(plan.toPublish)).toEqual(offsets);
    expect(plan.result.matched).toBe(offsets.length);
  });

  it('leaves out what was replayed before, unless includeReplayed', () => {
    const before = new Map([['0:1', '2026-12-01T00:00:00.000Z']]);
    const plan = planReplay(topic, before, { all: true }, scope);
    expect(offsetsOf(plan.toPublish)).toEqual([0, 2, 3]);
    expect(plan.result).toMatchObject({ matched: 4, skippedAlreadyReplayed: 1 });
    const again = planReplay(topic, before, { all: true, includeReplayed: true }, scope);
    expect(offsetsOf(again.toPublish)).toEqual([0, 1, 2, 3]);
    expect(again.result.skippedAlreadyReplayed).toBe(0);
  });

  it('leaves out a dead letter of a topic this consumer does not read, or that names none', () => {
    const foreign = deadLetter(4, { sourceTopic: 'other' });
    const unnamed = deadLetter(5);
    delete unnamed.headers[DeadLetterHeader.sourceTopic];
    const plan = planReplay([...topic, foreign, unnamed], nothingReplayed, { all: true }, scope);
    expect(offsetsOf(plan.toPublish)).toEqual([0, 1, 2, 3]);
    expect(plan.result.skippedNotOwnTopic).toEqual([
      { partition: 0, offset: '4', sourceTopic: 'other' },
      { partition: 0, offset: '5', sourceTopic: null },
    ]);
  });

  it('replays a dead letter of any topic when the retry topic is named as targetTopic', () => {
    const foreign = deadLetter(4, { sourceTopic: 'other' });
    const plan = planReplay(
      [foreign],
      nothingReplayed,
      { all: true, targetTopic: 'c.retry' },
      scope,
    );
    expect(offsetsOf(plan.toPublish)).toEqual([4]);
    expect(plan.result.skippedNotOwnTopic).toEqual([]);
  });
});

describe('dryRunResult', () => {
  it('says what a replay would publish, and where, with nothing replayed', () => {
    const plan = planReplay([deadLetter(0), deadLetter(7)], new Set(['0:0']), { all: true }, scope);
    expect(dryRunResult(plan, 'c.retry')).toEqual({
      matched: 2,
      replayed: [],
      skippedAlreadyReplayed: 1,
      skippedNotOwnTopic: [],
      dryRun: true,
      wouldReplay: [{ partition: 0, offset: '7', targetTopic: 'c.retry' }],
    });
  });
});

describe('checkReplayRequest', () => {
  it.each<[string, ReplayRequest]>([
    ['no selector', {}],
    ['an empty list of messages', { messages: [] }],
    ['a target other than the retry topic', { all: true, targetTopic: 'parcels' }],
  ])('refuses %s', (_what, request) => {
    expect(() => checkReplayRequest(request, 'c.retry')).toThrow(InboxError);
    expect(() => checkReplayRequest(request, 'c.retry')).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }) as Error,
    );
  });

  it('accepts a selector, with the retry topic as target', () => {
    expect(() =>
      checkReplayRequest({ eventType: 'ParcelLost', targetTopic: 'c.retry' }, 'c.retry'),
    ).not.toThrow();
  });
});

describe('replayMessage', () => {
  it("keeps the key, value and the message's own headers, drops the inbox's, and says what it replays", () => {
    const letter = deadLetter(3);
    letter.headers['event-key'] = 'ParcelShipped:p3:1';
    letter.headers[DeadLetterHeader.error] = 'boom';
    expect(replayMessage(letter, 'c.dlq')).toEqual({
      key: Buffer.from('p3'),
      value: Buffer.from('{"n":3}'),
      headers: {
        'event-type': 'ParcelShipped',
        'event-key': 'ParcelShipped:p3:1',
        [DeadLetterHeader.replayOf]: 'c.dlq/0@3',
      },
    });
  });
});
