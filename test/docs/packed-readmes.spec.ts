import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './markdown-files';

// What npm shows and the tarball holds is each package's README alone: an adopter has none of
// this repository's code, paths or docs. This reads the READMEs inside the packed tarballs
// (dist/packages, packing again when a tarball's README is not the one in packages/) and fails
// on every name of the repository's own code, and on relative links to files not in the tarball.
const PACKAGES = ['messaging', 'database', 'outbox', 'inbox'];
const TARBALLS = join(ROOT, 'dist/packages');

/** The names of this repository's own code that a packed README must not hold. */
export const IN_REPO_NAMES: Array<{ what: string; pattern: RegExp }> = [
  { what: 'an in-house library (@app/…)', pattern: /@app\//g },
  { what: 'a path under libs/', pattern: /(?<![\w-])libs\//g },
  { what: 'a path under apps/', pattern: /(?<![\w-])apps\//g },
  { what: 'a path under packages/', pattern: /(?<![\w-])packages\//g },
  { what: 'the services’ bootstrapService', pattern: /bootstrapService/g },
  { what: 'the services’ CommonEnv', pattern: /CommonEnv/g },
  { what: 'a repository-relative src/ or test/ path', pattern: /(?<![\w./-])(src|test)\//g },
  {
    what: 'a path of the repository (docs/, bench/, scripts/, examples/, tools/)',
    pattern: /(?<![\w-])(docs|bench|scripts|examples|tools)\//g,
  },
  { what: 'a path out of the package (../)', pattern: /(?<![\w.])\.\.\//g },
  { what: '"this repository" or "this project"', pattern: /this\s+(repository|project)/g },
];

/** Each in-repo name in `markdown`, as `line N: <what>: <match>`. */
export function inRepoNames(markdown: string): string[] {
  const lineOf = (index: number) => markdown.slice(0, index).split('\n').length;
  return IN_REPO_NAMES.flatMap(({ what, pattern }) =>
    [...markdown.matchAll(pattern)].map((m) => `line ${lineOf(m.index)}: ${what}: ${m[0]}`),
  );
}

/** The relative link targets of `markdown` (outside code), without their #anchor. */
export function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^([a-z]+:|#)/i.test(target))
    .map((target) => target.replace(/#.*$/, ''));
}

function tarballOf(name: string): string | undefined {
  if (!existsSync(TARBALLS)) return undefined;
  const file = readdirSync(TARBALLS).find((f) =>
    new RegExp(`^outbox-inbox-${name}-\\d[\\w.-]*\\.tgz$`).test(f),
  );
  return file && join(TARBALLS, file);
}

function tar(args: string[]): string {
  return execFileSync('tar', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function packedReadme(tarball: string): string {
  return tar(['-xzOf', tarball, 'package/README.md']);
}

/** True when every package has a tarball whose README is the one in packages/<name>. */
function tarballsCurrent(): boolean {
  return PACKAGES.every((name) => {
    const tarball = tarballOf(name);
    if (!tarball) return false;
    const source = readFileSync(join(ROOT, 'packages', name, 'README.md'), 'utf8');
    return (
      tar(['-tzf', tarball]).includes('package/README.md\n') && packedReadme(tarball) === source
    );
  });
}

const packed = new Map<string, { readme: string; files: Set<string> }>();

beforeAll(() => {
  if (!tarballsCurrent()) {
    execFileSync('bash', [join(ROOT, 'scripts/pack-libs.sh')], { cwd: ROOT, stdio: 'ignore' });
  }
  for (const name of PACKAGES) {
    const tarball = tarballOf(name)!;
    const files = tar(['-tzf', tarball])
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, ''));
    packed.set(name, { readme: packedReadme(tarball), files: new Set(files) });
  }
}, 600_000);

describe("the packages' READMEs, as packed", () => {
  it.each(PACKAGES)('@outbox-inbox/%s ships its README', (name) => {
    expect(packed.get(name)!.readme).toEqual(
      readFileSync(join(ROOT, 'packages', name, 'README.md'), 'utf8'),
    );
  });

  it.each(PACKAGES)("@outbox-inbox/%s's README names none of this repository's code", (name) => {
    expect(inRepoNames(packed.get(name)!.readme)).toEqual([]);
  });

  it.each(PACKAGES)("@outbox-inbox/%s's README links only to files it ships", (name) => {
    const { readme, files } = packed.get(name)!;
    expect(
      relativeLinks(readme).filter((target) => !files.has(target.replace(/^\.\//, ''))),
    ).toEqual([]);
  });

  it.each(['Install', 'Quick start on PostgreSQL', 'Quick start on MySQL or MariaDB'])(
    'the outbox and the inbox READMEs have a "%s" section',
    (heading) => {
      for (const name of ['outbox', 'inbox']) {
        expect(packed.get(name)!.readme).toContain(`\n## ${heading}\n`);
      }
    },
  );

  it('the outbox and the inbox READMEs show both ways to run the migrations', () => {
    for (const name of ['outbox', 'inbox']) {
      const { readme } = packed.get(name)!;
      expect(readme).toMatch(/typeorm migration:run -d \S*data-source\.js/);
      expect(readme).toContain('migrationsRun: true');
      expect(readme).toContain('npm install @nestjs/swagger');
    }
  });
});

describe('the in-repo names the packed READMEs are read for', () => {
  it.each([
    ["import { bootstrapService } from '@app/service-bootstrap';", 2],
    ['see libs/observability and apps/order-service', 2],
    ['the statements live in `src/store/sql/` (test/outbox.int-spec.ts)', 2],
    ['CommonEnv of the config', 1],
    ['measured in bench/README.md, see docs/operations.md', 2],
    ['see ../outbox/README.md or packages/inbox', 2],
    ['tested in this\nrepository', 1],
    ['15 in this repository', 1],
  ])('finds them in %j', (text, count) => {
    expect(inRepoNames(text as string)).toHaveLength(count as number);
  });

  it.each([
    "import { AppModule } from './app.module.js';",
    'npx typeorm migration:run -d build/src/data-source.js',
    'the `/testing` subpath, `@outbox-inbox/outbox/http`, kafka-topics.sh --create',
  ])('lets an adopter’s own names pass: %j', (text) => {
    expect(inRepoNames(text)).toEqual([]);
  });

  it('reads relative links outside code, and leaves absolute ones and anchors', () => {
    const markdown =
      '[a](docs/x.md#y) [b](https://example.com/z) [c](#here) `[d](e.md)`\n```\n[f](g.md)\n```';
    expect(relativeLinks(markdown)).toEqual(['docs/x.md']);
  });
});
