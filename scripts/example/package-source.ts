import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a lane installs the @outbox-inbox/* packages from, after `npm ci` of its own lockfile. */
export interface PackageSource {
  /** What `npm install` is given: names with versions (a registry) or tarball paths. */
  specs: string[];
  /** Lines of the app's .npmrc (a registry for the @outbox-inbox scope), if any. */
  npmrc: string[];
}

/**
 * The tarballs of `npm run pack:libs`, all four in one install so that npm finds each
 * package's siblings among them. The loopback registry (scripts/example/local-registry.ts,
 * once it lands) replaces this source with names: `@outbox-inbox/outbox@<version>` and an
 * `@outbox-inbox:registry=` line.
 */
export function tarballSource(packagesDir: string): PackageSource {
  const specs = readdirSync(packagesDir)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => join(packagesDir, file));
  if (specs.length === 0) throw new Error(`no tarballs in ${packagesDir}: npm run pack:libs`);
  return { specs, npmrc: [] };
}
