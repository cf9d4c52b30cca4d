import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// A package installed from its tarball resolves only what its package.json declares. The
// layer rules keep in-house libraries out of packages/*/src; this keeps every npm import there
// declared as a dependency or a peer, so a missing one fails here and not at `pack:libs` time
// in an adopter's install.
const root = join(__dirname, '../..');
const packagesDir = join(root, 'packages');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(int-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The bare module specifiers of a file: `from '…'`, `import('…')`, `require('…')`. */
export function bareImports(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(
    /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)'([^']+)'/g,
  )) {
    if (!match[1].startsWith('.')) found.add(match[1]);
  }
  return [...found];
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function undeclaredImports(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const builtins = new Set(builtinModules);
  return sourceFiles(join(packageDir, 'src')).flatMap((file) =>
    bareImports(readFileSync(file, 'utf8'))
      .filter((specifier) => !specifier.startsWith('node:') && !builtins.has(specifier))
      .filter((specifier) => !declared.has(packageOf(specifier)))
      .map(
        (specifier) =>
          `${relative(root, file)}: '${specifier}' is not in ${manifest.name}'s package.json`,
      ),
  );
}

describe('the packages declare what their sources import', () => {
  // packages/ also holds files (the release notes): only its folders are packages. The private
  // test kit declares its imports too, so the kit of the packages' tests stays on their floor.
  const packages = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => readdirSync(join(packagesDir, name)).includes('package.json'));

  it('finds the four packages and the test kit', () => {
    expect(packages.sort()).toEqual(['database', 'inbox', 'messaging', 'outbox', 'test-kit']);
  });

  it.each(packages)('packages/%s imports only its declared dependencies and peers', (name) => {
    expect(undeclaredImports(join(packagesDir, name))).toEqual([]);
  });

  it('reads every import form, so an undeclared one cannot slip through', () => {
    const source = [
      "import { A } from '@nestjs/common';",
      "import type { B } from '@app/observability';",
      "import 'reflect-metadata';",
      "const c = await import('pg');",
      "const d = require('mysql2/promise');",
      "import { e } from './local';",
    ].join('\n');
    expect(bareImports(source).map(packageOf)).toEqual([
      '@nestjs/common',
      '@app/observability',
      'reflect-metadata',
      'pg',
      'mysql2',
    ]);
  });
});
