import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The repository's root, where docker-compose.yml is. */
export const ROOT = join(__dirname, '..', '..');

/** A volume or a bind mount of a service, in either of compose's notations. */
export interface Mount {
  source: string;
  target: string;
  readOnly: boolean;
}

/** A service as `docker-compose config` resolves it: anchors merged, variables filled in. */
export interface ResolvedService {
  image?: string;
  user?: string;
  command?: string[];
  environment: Record<string, string>;
  volumes: Mount[];
  depends_on: Record<string, { condition: string }>;
}

/**
 * docker-compose.yml as `docker-compose --env-file <envFile> config` resolves it (Debian's
 * docker-compose, which CI installs: it prints YAML; Compose v2 prints the same shape). The
 * caller's environment is left out, so a TOPIC_PREFIX of the test run cannot leak in.
 */
export function resolvedCompose(envFile = '.env.example'): Record<string, ResolvedService> {
  let text: string;
  try {
    text = execFileSync(
      'docker-compose',
      ['--env-file', envFile, '-f', 'docker-compose.yml', 'config'],
      { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
  } catch (error) {
    throw new Error(
      `docker-compose config failed (install Debian's docker-compose, as .ci/run does): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const raw = parse(text) as { services: Record<string, Record<string, unknown>> };
  const services: Record<string, ResolvedService> = {};
  for (const [name, service] of Object.entries(raw.services)) {
    services[name] = {
      image: service.image as string | undefined,
      user: service.user as string | undefined,
      command: service.command as string[] | undefined,
      environment: Object.fromEntries(
        Object.entries((service.environment ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          String(v),
        ]),
      ),
      volumes: ((service.volumes ?? []) as unknown[]).map(mountOf),
      depends_on: (service.depends_on ?? {}) as Record<string, { condition: string }>,
    };
  }
  return services;
}

function mountOf(volume: unknown): Mount {
  if (typeof volume === 'string') {
    const [source, target, mode] = volume.split(':');
    return { source, target, readOnly: mode === 'ro' };
  }
  const long = volume as { source: string; target: string; read_only?: boolean };
  return { source: long.source, target: long.target, readOnly: long.read_only === true };
}

/** The volume (or bind source) holding `path` in `service`, and the file's path inside it. */
export function mountedFile(
  service: ResolvedService,
  path: string,
): { source: string; file: string; readOnly: boolean } | undefined {
  const mount = service.volumes.find((m) => path.startsWith(`${m.target}/`));
  return mount && { ...mount, file: path.slice(mount.target.length + 1) };
}

/** One line of deploy/secrets/secrets.tsv: secret `secret` as file `file` of volume `secrets-<volume>`. */
export interface SecretGrant {
  volume: string;
  file: string;
  secret: string;
}

/** deploy/secrets/secrets.tsv, what compose-secrets writes where. */
export function secretGrants(): SecretGrant[] {
  return readFileSync(join(ROOT, 'deploy/secrets/secrets.tsv'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [volume, file, secret] = line.split(/\s+/);
      return { volume, file, secret };
    });
}

/** The secret that file `file` of volume `source` (`secrets-<volume>`) holds. */
export function secretIn(grants: SecretGrant[], source: string, file: string): string | undefined {
  return grants.find((g) => `secrets-${g.volume}` === source && g.file === file)?.secret;
}

/**
 * The server.properties that deploy/kafka/start-broker.sh writes from the broker's KAFKA_*
 * variables, by the apache/kafka image's convention: KAFKA_ dropped, lower case, `___` to
 * `-`, `__` to `_`, `_` to `.`.
 */
export function brokerProperties(env: Record<string, string>): Map<string, string> {
  const properties = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('KAFKA_')) continue;
    const key = name
      .slice('KAFKA_'.length)
      .toLowerCase()
      .split('___')
      .map((part) =>
        part
          .split('__')
          .map((word) => word.replace(/_/g, '.'))
          .join('_'),
      )
      .join('-');
    properties.set(key, value);
  }
  return properties;
}
