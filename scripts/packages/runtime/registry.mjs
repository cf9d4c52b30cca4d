// The ES module build's side of the one-build-per-process registry of an @outbox-inbox package
// (copied into dist/esm/entry/ by scripts/packages/build-packages.ts): see registry.cjs. The
// other build loads this build's files with require(), which Node >= 20.19 does for ES modules
// without top-level await (none of the package's modules has one).
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);
const manifest = requireHere('../../../package.json');

const key = Symbol.for(`${manifest.name}@${manifest.version}`);
const build = Object.freeze({
  format: 'module',
  /** The exports of `file` (a path relative to dist/<format>/entry/) in this build. */
  load: (file) => requireHere(file),
});

/** The first build registered for this package in this process; registers this one if none. */
function registeredBuild() {
  globalThis[key] ??= build;
  return globalThis[key];
}

/** The exports of the implementation `file`: this build's own (`own`), or the registered build's. */
export function exportsOf(file, own) {
  const first = registeredBuild();
  return first === build ? own : first.load(file);
}
