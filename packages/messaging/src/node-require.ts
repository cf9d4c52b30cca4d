/**
 * A CommonJS `require` that resolves from this package's files, in both of its builds: tsc emits
 * this file as it is for the CommonJS build, and the package build (scripts/packages) replaces it
 * in the ES module build with `createRequire(import.meta.url)`, which Node >= 20.19 lets load ES
 * modules without top-level await too.
 */
export const nodeRequire: NodeJS.Require = require;
