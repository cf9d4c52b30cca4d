import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The ```ts blocks of docs/adopting.md that name their file on the first line. */
function excerpts(): Array<{ file: string; code: string }> {
  const doc = readFileSync(join(ROOT, 'docs/adopting.md'), 'utf8');
  return [...doc.matchAll(/```ts\n\/\/ (\S+)\n([\s\S]*?)```/g)].map(([, file, code]) => ({
    file,
    code,
  }));
}

describe('docs/adopting.md', () => {
  it('walks through the example with excerpts of each of its files', () => {
    expect(excerpts().map((e) => e.file)).toEqual(
      expect.arrayContaining([
        'examples/nest12-typeorm1-postgres-apache/src/app.module.ts',
        'examples/nest12-typeorm1-postgres-apache/src/tickets.service.ts',
        'examples/nest12-typeorm1-postgres-apache/src/ticket-opened.consumer.ts',
      ]),
    );
  });

  it.each(excerpts())('quotes $file as it is', ({ file, code }) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toContain(code);
  });
});
