import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { markdownFiles, ROOT } from './markdown-files';

/** Every relative link of the README and docs/ points at a file (and heading) that exists. */

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const headings = markdown
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line));
  return new Set(
    headings.map((h) =>
      h
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('documentation links', () => {
  const files = markdownFiles();

  it('finds the README and the docs', () => {
    expect(files.map((f) => relative(ROOT, f)).sort()).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/development.md',
        'docs/guarantees.md',
        'docs/operations.md',
      ]),
    );
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))(
    '%s: every relative link resolves',
    (_, file) => {
      const markdown = readFileSync(file, 'utf8');
      const broken: string[] = [];
      for (const link of relativeLinks(markdown)) {
        const [path, anchor] = link.split('#');
        const target = path ? join(dirname(file), decodeURIComponent(path)) : file;
        if (!existsSync(target)) {
          broken.push(`${link} (no such file)`);
        } else if (anchor && statSync(target).isFile() && target.endsWith('.md')) {
          if (!anchors(readFileSync(target, 'utf8')).has(anchor))
            broken.push(`${link} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    },
  );

  it('keeps the README short: set-up first, at most about 300 lines', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections[0]).toBe('Set-up');
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });
});
