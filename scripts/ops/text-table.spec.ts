import { textTable } from './text-table';

describe('textTable', () => {
  it('aligns every column under its header, numbers to the right', () => {
    expect(
      textTable(
        ['outcome', 'rows'],
        [
          ['applied', 40],
          ['duplicates', 3],
        ],
      ),
    ).toBe(
      ['outcome     rows', '----------  ----', 'applied       40', 'duplicates     3'].join('\n'),
    );
  });

  it('shows a missing value as -, and cuts a long cell', () => {
    const table = textTable(['a', 'b'], [[null, 'x'.repeat(30)]], 10);
    expect(table.split('\n')).toEqual(['a  b', '-  ----------', '-  xxxxxxxxx…']);
  });

  it('says (none) under the header of an empty table', () => {
    expect(textTable(['id', 'event'], [])).toBe('id  event\n--  -----\n(none)');
  });
});
