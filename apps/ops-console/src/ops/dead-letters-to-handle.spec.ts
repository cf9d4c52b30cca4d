import { DeadLetterView, deadLettersToHandle } from './dead-letters-to-handle';

const letter = (offset: string, replayedAt: string | null = null): DeadLetterView => ({
  partition: 0,
  offset,
  replayedAt,
});

describe("the home page's dead-letter count", () => {
  it('counts the dead letters never replayed', () => {
    expect(deadLettersToHandle([letter('0'), letter('1')])).toBe(2);
  });

  it('no longer counts a dead letter that was replayed and applied', () => {
    expect(deadLettersToHandle([letter('0', '2026-12-01T10:00:00.000Z')])).toBe(0);
  });

  it('counts a replayed dead letter that failed again once, through its new dead letter', () => {
    expect(deadLettersToHandle([letter('0', '2026-12-01T10:00:00.000Z'), letter('1')])).toBe(1);
  });

  it('is zero without dead letters', () => {
    expect(deadLettersToHandle([])).toBe(0);
  });
});
