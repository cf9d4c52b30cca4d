import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { markdownFiles, ROOT } from './markdown-files';
import { tableProblems } from './markdown-tables';

describe('documentation tables', () => {
  it.each(markdownFiles().map((f) => [relative(ROOT, f), f]))(
    '%s: every table has its delimiter row second and only there, and even rows',
    (_, file) => {
      expect(tableProblems(readFileSync(file, 'utf8'))).toEqual([]);
    },
  );

  it('reports a delimiter row in the middle of a table, a missing one and a short row', () => {
    const table = ['| a | b |', '| - | - |', '| 1 | 2 |', '| --- | --- |', '| 3 | 4 |'];
    expect(tableProblems(['text', '', ...table, '', 'more'].join('\n'))).toEqual([
      'line 6: a delimiter row inside a table',
    ]);
    expect(tableProblems('| a | b |\n| 1 | 2 |')).toEqual([
      'line 2: the table has no delimiter row',
    ]);
    expect(tableProblems('| a | b |\n| - | - |\n| 1 |')).toEqual([
      'line 3: 1 cells, the header has 2',
    ]);
  });

  it('reads pipes escaped or inside fenced code as text, not as cells or tables', () => {
    expect(tableProblems('| a | b |\n| - | - |\n| x \\| y | 2 |')).toEqual([]);
    expect(tableProblems('```\n| a |\n| - |\n| - |\n```')).toEqual([]);
  });
});
