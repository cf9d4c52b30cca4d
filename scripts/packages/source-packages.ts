import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package.json field the build reads or writes. */
export interface Manifest {
  name: string;
  version: string;
  exports: Record<string, string>;
  dependencies?: Record<string, string>;
  private?: boolean;
  [field: string]: unknown;
}

/** One entry point: a subpath of the package and the source file that implements it. */
export interface EntryPoint {
  /** The key in `exports`: `.`, `./http`, `./testing`, … */
  subpath: string;
  /** The entry file's name in dist/<format>/entry/: `index` for `.`, else the subpath's. */
  name: string;
  /** The implementation, relative to dist/<format>/ and without extension: `http/index`. */
  impl: string;
}

/** An adoptable package of packages/<dir>, as its package.json declares it. */
export interface SourcePackage {
  dir: string;
  manifest: Manifest;
  entries: EntryPoint[];
}

/**
 * The entry points of a package, from its one list: the source package.json's `exports`, which
 * maps each subpath to its source file (`"./http": "./src/http/index.ts"`). The published
 * package.json's conditional exports and the entry files are generated from it.
 */
function entryPointsOf(manifest: Manifest): EntryPoint[] {
  return Object.entries(manifest.exports).map(([subpath, source]) => {
    const impl = /^\.\/src\/(.+)\.ts$/.exec(source)?.[1];
    if (!impl) throw new Error(`${manifest.name}: exports["${subpath}"] must be ./src/….ts`);
    const name = subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
    return { subpath, name, impl };
  });
}

/**
 * The adoptable packages of packages/*, each after the @outbox-inbox packages it depends on, so
 * each builds against the declarations of those before it. A private package (the test kit of
 * their tests) is never built, packed or published.
 */
export function sourcePackages(root: string): SourcePackage[] {
  const all = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = join(root, 'packages', entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      return { dir, manifest };
    })
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ dir, manifest, entries: entryPointsOf(manifest) }));
  const ordered: SourcePackage[] = [];
  const visit = (pkg: SourcePackage, path: string[]) => {
    if (ordered.includes(pkg)) return;
    if (path.includes(pkg.manifest.name)) throw new Error(`cycle: ${path.join(' → ')}`);
    for (const dependency of Object.keys(pkg.manifest.dependencies ?? {})) {
      const sibling = all.find((other) => other.manifest.name === dependency);
      if (sibling) visit(sibling, [...path, pkg.manifest.name]);
    }
    ordered.push(pkg);
  };
  for (const pkg of all) visit(pkg, []);
  return ordered;
}
