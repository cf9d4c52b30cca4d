import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root, from test/docs. */
export const ROOT = join(__dirname, '..', '..');

/** The README and every markdown file directly under docs/: the documents the docs specs read. */
export function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  return [
    join(ROOT, 'README.md'),
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(docs, f)),
  ];
}
