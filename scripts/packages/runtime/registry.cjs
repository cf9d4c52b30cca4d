'use strict';
// The CommonJS build's side of the one-build-per-process registry of an @outbox-inbox package
// (copied into dist/cjs/entry/ by scripts/packages/build-packages.ts; registry.mjs is the ES
// module build's side). The first entry point of either build that loads registers its build
// under Symbol.for('@outbox-inbox/<name>@<version>') on globalThis; every entry point of either
// build then hands out that build's modules, so a process that loads the package by both
// import and require still has one instance of each class, token and symbol it exports.
const manifest = require('../../../package.json');

const key = Symbol.for(`${manifest.name}@${manifest.version}`);
const build = Object.freeze({
  format: 'commonjs',
  /** The exports of `file` (a path relative to dist/<format>/entry/) in this build. */
  load: (file) => require(file),
});

/** The first build registered for this package in this process; registers this one if none. */
function registeredBuild() {
  globalThis[key] ??= build;
  return globalThis[key];
}

/** The exports of the implementation `file`: this build's own, or the registered build's. */
exports.exportsOf = (file, loadOwn) => {
  const first = registeredBuild();
  return first === build ? loadOwn() : first.load(file);
};
