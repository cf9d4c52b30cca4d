import { isISO8601 } from 'class-validator';
import { isStrictIso8601 } from './iso-timestamp';

/** Strings around the edges of toISOString()'s form, and others validator reads its own way. */
function candidates(): string[] {
  const out: string[] = [];
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  for (const year of [0, 1, 1600, 1900, 2000, 2023, 2024, 2026, 2100, 9999]) {
    for (let month = 0; month <= 13; month++) {
      for (const day of [0, 1, 9, 10, 19, 20, 28, 29, 30, 31, 32, 39, 40]) {
        const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
        for (const time of ['00:00:00.000', '23:59:59.999', '24:00:00.000', '12:60:00.000']) {
          out.push(`${date}T${time}Z`);
        }
        out.push(date, `${date}T10:11:12Z`, `${date} 10:11:12.123Z`, `${date}T10:11:12.123+02:00`);
      }
    }
  }
  return out.concat([
    '',
    '2026-12-07',
    '2026-341',
    '2026-W49-1',
    '20261207T101112Z',
    '2026-12-07T10:11:12.1234Z',
    '2026-12-07T10:11:12.123z',
    '2026-12-07T10:11:12.123',
    '+002026-12-07T10:11:12.123Z',
    '2026-12-07T10:11:12.123Z ',
    ' 2026-12-07T10:11:12.123Z',
    '2026-02-29T00:00:00.000Z',
    '2024-02-29T00:00:00.000Z',
    '٢٠٢٦-12-07T10:11:12.123Z',
    new Date(0).toISOString(),
    new Date().toISOString(),
  ]);
}

describe('isStrictIso8601', () => {
  it("gives class-validator's isISO8601(strict) verdict on every candidate", () => {
    const differing = candidates().filter(
      (value) => isStrictIso8601(value) !== isISO8601(value, { strict: true }),
    );
    expect(differing).toEqual([]);
  });

  it('accepts what toISOString writes and rejects a day the month does not have', () => {
    expect(isStrictIso8601('2024-02-29T23:59:59.999Z')).toBe(true);
    expect(isStrictIso8601('2026-02-29T00:00:00.000Z')).toBe(false);
    expect(isStrictIso8601('2026-04-31T00:00:00.000Z')).toBe(false);
    expect(isStrictIso8601('2026-13-01T00:00:00.000Z')).toBe(false);
  });

  it('rejects what is not a string', () => {
    for (const value of [undefined, null, 20261207, new Date(), {}]) {
      expect(isStrictIso8601(value)).toBe(false);
    }
  });
});
