import { affectedRows } from './affected-rows';

describe('affectedRows', () => {
  it("reads mysql2's ResultSetHeader", () => {
    expect(affectedRows({ affectedRows: 3, insertId: 0, warningStatus: 0 })).toBe(3);
    expect(affectedRows({ affectedRows: 0 })).toBe(0);
  });

  it('reads the [rows, affected] pair TypeORM may answer', () => {
    expect(affectedRows([[], 2])).toBe(2);
  });

  it('counts nothing for what is not a write result', () => {
    expect(affectedRows(undefined)).toBe(0);
    expect(affectedRows(null)).toBe(0);
    expect(affectedRows([{ n: 1 }, { n: 2 }])).toBe(0);
    expect(affectedRows({})).toBe(0);
  });
});
