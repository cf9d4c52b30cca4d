import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './markdown-files';

// The packages' READMEs quote the example lanes' files whole: the PostgreSQL quick start is
// the nest12-typeorm1-postgres-apache lane's app (an ES module), and each "on MySQL or MariaDB"
// block is the nest11-typeorm03-mariadb lane's file as an ES module writes it (`.js` in its
// relative imports). test:example runs both lanes, so the quick start is code that runs.
const PACKAGES = ['messaging', 'database', 'outbox', 'inbox'];
const NEST12 = join(ROOT, 'examples/nest12-typeorm1-postgres-apache/src');
const NEST11 = join(ROOT, 'examples/nest11-typeorm03-mariadb/src');
const MYSQL = ', on MySQL or MariaDB';

interface Excerpt {
  readme: string;
  file: string;
  mysql: boolean;
  code: string;
}

/** The ```ts blocks of a package's README whose first line names a file of the app. */
export function excerptsOf(readme: string, markdown: string): Excerpt[] {
  return [
    ...markdown.matchAll(/```ts\n\/\/ ([\w.-]+\.ts)(, on MySQL or MariaDB)?\n([\s\S]*?)```/g),
  ].map(([, file, mysql, code]) => ({ readme, file, mysql: mysql === MYSQL, code }));
}

/** The lane's file as the README quotes it. */
function laneFile({ file, mysql }: Excerpt): string {
  if (!mysql) return readFileSync(join(NEST12, file), 'utf8');
  return readFileSync(join(NEST11, file), 'utf8').replace(/from '(\.\/[^']+)'/g, "from '$1.js'");
}

const excerpts = PACKAGES.flatMap((name) =>
  excerptsOf(
    `packages/${name}/README.md`,
    readFileSync(join(ROOT, 'packages', name, 'README.md'), 'utf8'),
  ),
);

describe("the packages' quick starts", () => {
  it.each(['outbox', 'inbox'])(
    'packages/%s/README.md quotes every file of the nest12 lane, and only those',
    (name) => {
      const quoted = excerpts
        .filter((e) => e.readme === `packages/${name}/README.md` && !e.mysql)
        .map((e) => e.file);
      expect(quoted.sort()).toEqual(readdirSync(NEST12).sort());
    },
  );

  it.each(PACKAGES)('packages/%s/README.md quotes a file of the lanes', (name) => {
    expect(excerpts.filter((e) => e.readme === `packages/${name}/README.md`)).not.toEqual([]);
  });

  it.each(excerpts)('$readme quotes $file (MySQL: $mysql) as it is', (excerpt) => {
    expect(excerpt.code).toEqual(laneFile(excerpt));
  });

  it('reads a block naming its file, and tells the MySQL variant by its first line', () => {
    const markdown = [
      '```ts\n// app.ts\nexport const a = 1;\n```',
      '```ts\n// data-source.ts, on MySQL or MariaDB\nexport const b = 2;\n```',
      '```ts\nexport const unnamed = 3;\n```',
    ].join('\n\n');
    expect(excerptsOf('x', markdown)).toEqual([
      { readme: 'x', file: 'app.ts', mysql: false, code: 'export const a = 1;\n' },
      { readme: 'x', file: 'data-source.ts', mysql: true, code: 'export const b = 2;\n' },
    ]);
  });
});
