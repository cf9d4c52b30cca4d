// Builds the adoptable packages (packages/*: messaging, database, outbox, inbox) into
// dist/packages-build/<dir>/, each after the ones it depends on: a CommonJS build (dist/cjs)
// and an ES module build (dist/esm) by tsc, relative imports of the latter made full paths
// (`./x.js`) by tsc-alias, the entry files of both (entry-files.ts), the published
// package.json (published-manifest.ts) and the README. scripts/pack-libs.sh packs the result.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { replaceTscAliasPaths } from 'tsc-alias';
import { writeEntryFiles } from './entry-files';
import { publishedManifest } from './published-manifest';
import { SourcePackage, sourcePackages } from './source-packages';

const root = join(__dirname, '../..');
const tsc = join(root, 'node_modules/.bin/tsc');

/** The ES module build's node-require.js: a require() that resolves from the file itself. */
const ESM_NODE_REQUIRE = [
  `import { createRequire } from 'node:module';`,
  `export const nodeRequire = createRequire(import.meta.url);`,
  '',
].join('\n');

function filesNamed(dir: string, name: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name === name)
    .map((entry) => join(entry.parentPath, entry.name));
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function buildEsm(pkg: SourcePackage, tsconfig: string, esm: string): Promise<void> {
  execFileSync(
    tsc,
    ['-p', tsconfig, '--outDir', esm, '--module', 'es2022', '--moduleResolution', 'bundler'],
    { stdio: 'inherit' },
  );
  // Node's ES module loader takes no extensionless relative import: `./x` becomes `./x.js`
  // or `./x/index.js`, in .js and .d.ts alike. Only relative imports: the tsconfig the
  // aliases are read from has no `paths` of its own.
  await replaceTscAliasPaths({
    configFile: join(__dirname, 'tsconfig.esm-paths.json'),
    outDir: esm,
    resolveFullPaths: true,
  });
  for (const file of filesNamed(esm, 'node-require.js')) writeFileSync(file, ESM_NODE_REQUIRE);
  writeJson(join(esm, 'package.json'), { type: 'module' });
  if (!existsSync(join(esm, 'index.js'))) throw new Error(`${pkg.manifest.name}: no ESM build`);
}

/** Builds one package into dist/packages-build/<dir>; returns that directory. */
export async function buildPackage(pkg: SourcePackage): Promise<string> {
  const out = join(root, 'dist/packages-build', relative(join(root, 'packages'), pkg.dir));
  rmSync(out, { recursive: true, force: true });
  const tsconfig = join(pkg.dir, 'tsconfig.lib.json');
  const dist = join(out, 'dist');
  execFileSync(tsc, ['-p', tsconfig, '--outDir', join(dist, 'cjs')], { stdio: 'inherit' });
  writeJson(join(dist, 'cjs/package.json'), { type: 'commonjs' });
  await buildEsm(pkg, tsconfig, join(dist, 'esm'));
  writeEntryFiles(pkg, dist);
  writeJson(join(out, 'package.json'), publishedManifest(pkg));
  for (const doc of ['README.md', 'CHANGELOG.md'])
    if (existsSync(join(pkg.dir, doc))) copyFileSync(join(pkg.dir, doc), join(out, doc));
  return out;
}

/** Builds every package in dependency order; returns their directories. */
export async function buildPackages(): Promise<string[]> {
  rmSync(join(root, 'dist/packages-build'), { recursive: true, force: true });
  const built: string[] = [];
  for (const pkg of sourcePackages(root)) built.push(await buildPackage(pkg));
  return built;
}

if (require.main === module) {
  buildPackages().then(
    (dirs) => console.log(dirs.map((dir) => relative(root, dir)).join('\n')),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
