import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a lane installs the @outbox-inbox/* packages from, after `npm ci` of its own lockfile. */
export interface PackageSource {
  /** What `npm install` is given: each package's name and version. */
  specs: string[];
  /** Lines of the app's .npmrc: the registry of the @outbox-inbox scope. */
  npmrc: string[];
  /** The registry every installed @outbox-inbox package must be resolved from. */
  registry: string;
}

/** What a registry source needs of a registry: scripts/example/local-registry.ts's LocalRegistry. */
export interface PublishTarget {
  /** Its address. */
  url: string;
  /** The .npmrc line(s) that send the @outbox-inbox scope to it. */
  npmrc: string;
  publish(tarball: string): void;
}

/** The tarballs of `npm run pack:libs` in `packagesDir`. */
function tarballsIn(packagesDir: string): string[] {
  const tarballs = readdirSync(packagesDir)
    .filter((file) => /^outbox-inbox-.+\.tgz$/.test(file))
    .map((file) => join(packagesDir, file));
  if (tarballs.length === 0) throw new Error(`no tarballs in ${packagesDir}: npm run pack:libs`);
  return tarballs;
}

/** `.../outbox-inbox-outbox-0.1.0.tgz` → `@outbox-inbox/outbox@0.1.0`. */
function nameOf(tarball: string): string {
  const match = /outbox-inbox-([a-z-]+)-(\d[\w.-]*)\.tgz$/.exec(tarball);
  if (!match) throw new Error(`not a packed @outbox-inbox package: ${tarball}`);
  return `@outbox-inbox/${match[1]}@${match[2]}`;
}

/**
 * The tarballs published to `registry`, then installed by name and version as from npm: npm
 * resolves each package's siblings from the registry, which the app's .npmrc names for the
 * @outbox-inbox scope only.
 */
export function registrySource(registry: PublishTarget, packagesDir: string): PackageSource {
  const tarballs = tarballsIn(packagesDir);
  for (const tarball of tarballs) registry.publish(tarball);
  return {
    specs: tarballs.map(nameOf),
    npmrc: registry.npmrc.split('\n').filter(Boolean),
    registry: registry.url,
  };
}
