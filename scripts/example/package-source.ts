import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where a lane installs the @outbox-inbox/* packages from, after `npm ci` of its own lockfile. */
export interface PackageSource {
  /** What `npm install` is given: names with versions (a registry) or tarball paths. */
  specs: string[];
  /** Lines of the app's .npmrc (a registry for the @outbox-inbox scope), if any. */
  npmrc: string[];
}

/** What a registry source needs of a registry: scripts/example/local-registry.ts's LocalRegistry. */
export interface PublishTarget {
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
 * The tarballs themselves, all four in one install so that npm finds each package's siblings
 * among them: the source until the loopback registry is used (registrySource).
 */
export function tarballSource(packagesDir: string): PackageSource {
  return { specs: tarballsIn(packagesDir), npmrc: [] };
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
  };
}
