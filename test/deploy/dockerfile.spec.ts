import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Dockerfile's stages, read as text (no Docker engine here): what `docker compose up` with
 * KAFKA_CLIENT=confluent relies on in the image.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Each stage's instructions by its name (`FROM … AS name`), continuation lines joined. */
function stages(dockerfile: string): Record<string, string> {
  const joined = dockerfile.replace(/\\\n/g, ' ');
  const named: Record<string, string> = {};
  for (const stage of joined.split(/^FROM /m).slice(1)) {
    const name = / AS (\S+)/.exec(stage.split('\n')[0])?.[1];
    if (name) named[name] = stage;
  }
  return named;
}

const dockerfile = stages(read('Dockerfile'));
const runtime = dockerfile.runtime ?? '';
/** The stage whose node_modules the runtime stage copies. */
const installer = dockerfile[/^COPY --from=(\S+) \/app\/node_modules /m.exec(runtime)?.[1] ?? ''];

describe('Dockerfile', () => {
  it("builds the confluent client's native addon as npm ci does outside Docker: the root's postinstall, the install script", () => {
    const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(manifest.scripts.postinstall).toBe('bash scripts/install-confluent-kafka.sh');
    expect(installer).toBeDefined();
    // npm ci skips every install script there; the postinstall then runs on its own.
    expect(installer).toMatch(/npm ci --omit=dev .*--ignore-scripts .*&& npm run postinstall /);
    expect(installer).toMatch(/COPY scripts\/install-confluent-kafka\.sh /);
  });

  it("compiles librdkafka against Debian's OpenSSL and zlib, and fails the image if the addon does not load", () => {
    for (const pkg of ['build-essential', 'python3', 'libssl-dev', 'zlib1g-dev'])
      expect(installer).toMatch(new RegExp(`apt-get install .*\\b${pkg}\\b`));
    expect(installer).toMatch(/node -e 'require\("@confluentinc\/kafka-javascript"\)'/);
  });

  it('gives the runtime stage the libraries librdkafka links, and no compiler', () => {
    for (const pkg of ['libssl3', 'zlib1g'])
      expect(runtime).toMatch(new RegExp(`apt-get install .*\\b${pkg}\\b`));
    expect(runtime).not.toMatch(/build-essential|-dev\b/);
    expect(runtime).not.toMatch(/\bnpm (ci|install)\b/);
  });
});
