import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** A static file of the console, as it is served. */
export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/**
 * Where the console's page, style and ES modules are: beside the built bundle
 * (dist/apps/ops-console/assets, copied there by nest-cli's "assets"), else in the source tree
 * (apps/ops-console/assets, when the app runs from its TypeScript sources in a test).
 */
export function consoleAssetsDir(): string {
  const candidates = [join(__dirname, 'assets'), join(__dirname, '..', '..', 'assets')];
  const found = candidates.find((dir) => existsSync(join(dir, 'ops.html')));
  if (!found) throw new Error(`the console's assets are in none of ${candidates.join(', ')}`);
  return found;
}

/**
 * The console's static files, read once at start: only the .html, .css and .js files of the
 * assets folder can be served, by their plain names; nothing else of the disk is reachable.
 */
export class ConsoleAssets {
  private constructor(private readonly files: ReadonlyMap<string, ConsoleAsset>) {}

  static load(dir = consoleAssetsDir()): ConsoleAssets {
    const files = new Map<string, ConsoleAsset>();
    for (const name of readdirSync(dir)) {
      const contentType = CONTENT_TYPES[extname(name)];
      if (contentType) files.set(name, { contentType, body: readFileSync(join(dir, name)) });
    }
    return new ConsoleAssets(files);
  }

  /** The file, or undefined when the console has none of that name. */
  get(name: string): ConsoleAsset | undefined {
    return this.files.get(name);
  }

  get names(): string[] {
    return [...this.files.keys()];
  }
}
