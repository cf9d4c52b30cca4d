import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NODE_FLAGS } from '../../scripts/stack/service-process';

/** docker-compose.yml as a laptop meets it: the properties a first `docker compose up` relies on. */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; target?: string };
  ports?: string[];
  environment?: Record<string, string | number>;
  command?: string[];
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  healthcheck?: { timeout?: string; start_period?: string };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const APPS = ['order-service', 'fulfillment-service', 'accounting-service', 'coupon-provider'];
const seconds = (duration = '0s') => Number(/^(\d+)s$/.exec(duration)?.[1] ?? NaN);

describe('docker-compose.yml', () => {
  it('publishes no MySQL port on the host', () => {
    expect(services.mysql.ports ?? []).toEqual([]);
  });

  it('runs the four services and the demo driver from one image, built from the runtime stage', () => {
    const images = new Set([...APPS, 'demo'].map((name) => services[name].image));
    expect([...images]).toEqual(['trading-outbox-inbox:local']);
    for (const name of [...APPS, 'demo']) expect(services[name].build?.target).toBe('runtime');
    expect(services.demo.command?.join(' ')).toMatch(/^node dist\//);
  });

  it('connects each service as its own MySQL user to its own database, never as root', () => {
    for (const name of APPS) {
      const database = name.replace(/-/g, '_');
      expect(services[name].environment?.DATABASE_URL).toBe(
        `mysql://${database}@mysql:3306/${database}`,
      );
      expect(services[name].environment?.DATABASE_PASSWORD_FILE).toBe(
        '/run/secrets/database_password',
      );
    }
    const init = read('deploy/mysql/create-service-users.sh');
    expect(init).toMatch(/GRANT SELECT ON \\`\$db\\`\.\* TO 'checker'@'%'/);
    expect(services.mysql.volumes).toContain(
      './deploy/mysql/create-service-users.sh:/docker-entrypoint-initdb.d/10-service-users.sh:ro',
    );
  });

  it('makes its users from deploy/mysql/service-users.sql, the file the stack and the tests apply', () => {
    expect(services.mysql.volumes).toContain(
      './deploy/mysql/service-users.sql:/etc/trading/service-users.sql:ro',
    );
    const init = read('deploy/mysql/create-service-users.sh');
    expect(init).toContain('/etc/trading/service-users.sql');
    // Every placeholder of the file is filled by the script, from the password file of the user
    // it names (or is the prefix, empty in compose).
    const sql = read('deploy/mysql/service-users.sql');
    const statements = sql
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n');
    const placeholders = new Set([...statements.matchAll(/\$\{([A-Z_]+)\}/g)].map((m) => m[1]));
    placeholders.delete('PREFIX');
    for (const variable of placeholders)
      expect(init).toMatch(new RegExp(`\\[${variable}\\]=[a-z_]+`));
    // No service user holds more than rows: no ALL, no DDL, no GRANT OPTION.
    for (const grant of statements.match(/^GRANT .*$/gm) ?? []) {
      if (/TO '\$\{PREFIX\}migrator'/.test(grant)) continue;
      expect(grant).toMatch(
        /^GRANT (SELECT|INSERT|UPDATE|DELETE)(, (SELECT|INSERT|UPDATE|DELETE))* ON /,
      );
    }
    expect(statements).not.toMatch(/WITH GRANT OPTION/);
  });

  it('migrates each service in a one-shot step as the schema owner, before the service starts', () => {
    for (const name of APPS) {
      const database = name.replace(/-/g, '_');
      const step = services[`${name}-migrate`];
      expect(step.image).toBe('trading-outbox-inbox:local');
      expect(step.command).toEqual(['node', `dist/apps/${name}/main.js`, 'migrate']);
      // DATABASE_URL is the owner's here: DATABASE_PASSWORD_FILE joins it (libs/config).
      expect(step.environment).toEqual({
        DATABASE_URL: `mysql://migrator@mysql:3306/${database}`,
        DATABASE_PASSWORD_FILE: '/run/secrets/database_password',
      });
      expect(services[name].depends_on?.[`${name}-migrate`]).toEqual({
        condition: 'service_completed_successfully',
      });
      // The service itself only serves, and never holds the owner's credentials.
      expect(services[name].command).toEqual(['node', `dist/apps/${name}/main.js`]);
      expect(JSON.stringify(services[name].environment)).not.toMatch(/migrator|MIGRATE/);
      expect(services[name].volumes).not.toContain('secrets-migrate:/run/secrets:ro');
    }
  });

  it('builds on a supported Node LTS (24 or newer)', () => {
    const bases = [...read('Dockerfile').matchAll(/^FROM node:(\d+)/gm)].map((m) => Number(m[1]));
    expect(bases.length).toBeGreaterThan(0);
    for (const major of bases) expect(major).toBeGreaterThanOrEqual(24);
  });

  it('runs the services with the V8 flags the local stack uses (heap sizing), none overridden', () => {
    const runtime = read('Dockerfile')
      .split(/^FROM /m)
      .find((stage) => / AS runtime/.test(stage));
    const options = /^ENV NODE_OPTIONS="?([^"\n]*)"?$/m.exec(runtime ?? '')?.[1];
    expect(options?.split(' ')).toEqual(SERVICE_NODE_FLAGS);
    for (const name of APPS) expect(services[name].environment).not.toHaveProperty('NODE_OPTIONS');
  });

  it("gives Kafka's health check a start period and a timeout a cold laptop meets", () => {
    const check = services.kafka.healthcheck!;
    expect(seconds(check.start_period)).toBeGreaterThanOrEqual(30);
    expect(seconds(check.timeout)).toBeGreaterThanOrEqual(10);
  });

  it('keeps test logs, bench results and .env out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['test-logs', 'bench/results', '.env', 'node_modules'])
      expect(ignored).toContain(entry);
  });
});
