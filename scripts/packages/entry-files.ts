import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourcePackage } from './source-packages';
import { valueExportsOf } from './value-exports';

const runtime = join(__dirname, 'runtime');

/**
 * Writes each entry point's file in both builds (dist/cjs/entry/<name>.js, dist/esm/entry/
 * <name>.js, what `exports` points at) and the registry they share (runtime/registry.*): an
 * entry point hands out its own build's implementation, or that of the build of the package
 * that registered first in the process, so both builds loaded together still make one.
 */
export function writeEntryFiles({ manifest, entries }: SourcePackage, dist: string): void {
  mkdirSync(join(dist, 'cjs/entry'), { recursive: true });
  mkdirSync(join(dist, 'esm/entry'), { recursive: true });
  copyFileSync(join(runtime, 'registry.cjs'), join(dist, 'cjs/entry/registry.js'));
  copyFileSync(join(runtime, 'registry.mjs'), join(dist, 'esm/entry/registry.js'));
  for (const { subpath, name, impl } of entries) {
    const file = `../${impl}.js`;
    const what = `${manifest.name}${subpath.slice(1)}`;
    writeFileSync(
      join(dist, 'cjs/entry', `${name}.js`),
      [
        `'use strict';`,
        `// ${what}, CommonJS: this build's ${file}, or the registered build's (registry.js).`,
        `module.exports = require('./registry.js').exportsOf('${file}', () => require('${file}'));`,
        '',
      ].join('\n'),
    );
    const names = valueExportsOf(join(dist, 'esm', `${impl}.js`));
    writeFileSync(
      join(dist, 'esm/entry', `${name}.js`),
      [
        `// ${what}, ES module: this build's ${file}, or the registered build's (registry.js).`,
        `import * as own from '${file}';`,
        `import { exportsOf } from './registry.js';`,
        '',
        `const chosen = exportsOf('${file}', own);`,
        names.length > 0 ? `export const { ${names.join(', ')} } = chosen;` : 'export {};',
        '',
      ].join('\n'),
    );
  }
}
