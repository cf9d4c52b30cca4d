import type { Manifest, SourcePackage } from './source-packages';

/** The conditional export of one entry point: `import` → ES module build, `require` → CommonJS. */
function conditionsOf(impl: string, name: string) {
  return {
    import: { types: `./dist/esm/${impl}.d.ts`, default: `./dist/esm/entry/${name}.js` },
    require: { types: `./dist/cjs/${impl}.d.ts`, default: `./dist/cjs/entry/${name}.js` },
  };
}

/**
 * The package.json that ships: the source one with its `exports` turned into conditional
 * exports of both builds, `main`/`types` for resolvers without `exports`, and `typesVersions`
 * so TypeScript's node10 resolution finds the subpaths' declarations too.
 */
export function publishedManifest({ manifest, entries }: SourcePackage): Manifest {
  const { name, version, description, license, exports: _, ...rest } = manifest;
  const root = entries.find((entry) => entry.subpath === '.');
  if (!root) throw new Error(`${name}: exports must have "."`);
  const subpaths = entries.filter((entry) => entry !== root);
  return {
    name,
    version,
    description,
    license,
    type: 'commonjs',
    main: `./dist/cjs/entry/${root.name}.js`,
    types: `./dist/cjs/${root.impl}.d.ts`,
    exports: {
      ...Object.fromEntries(entries.map((e) => [e.subpath, conditionsOf(e.impl, e.name)])),
      './package.json': './package.json',
    } as unknown as Record<string, string>,
    typesVersions: {
      '*': Object.fromEntries(
        subpaths.map((e) => [e.subpath.slice(2), [`./dist/cjs/${e.impl}.d.ts`]]),
      ),
    },
    ...rest,
  };
}
