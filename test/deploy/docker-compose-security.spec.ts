import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SECRET_VARIABLES } from '@app/config';
import {
  CLUSTER_ADMIN,
  CLUSTER_SASL_MECHANISM,
  KAFKA_ACCESS_FILE,
  nodeSecurityProperties,
  readKafkaAccessFile,
} from '@outbox-inbox/test-kit';
import {
  brokerProperties,
  mountedFile,
  resolvedCompose,
  ROOT,
  secretGrants,
  secretIn,
} from './compose-config';

/**
 * docker compose runs the secured setup the tests run (issue 36, item 8), as
 * `docker-compose config` resolves the file: the broker as the kit's secured node, the ACL step
 * from the file the tests apply, one principal per Kafka client, and every secret from a file.
 */
const services = resolvedCompose();
const grants = secretGrants();
const principals = Object.keys(readKafkaAccessFile().principals);
const KAFKA_SERVICES = ['order-service', 'fulfillment-service', 'accounting-service'];

/** The secret a service reads from the file `path` names, through its mounts and secrets.tsv. */
function secretAt(service: string, path: string): string | undefined {
  const mount = mountedFile(services[service], path);
  return mount && secretIn(grants, mount.source, mount.file);
}

/** Whether `from` waits, directly or through the services it waits for, for `to`. */
function waitsFor(from: string, to: string, condition: string, seen = new Set<string>()): boolean {
  for (const [next, { condition: c }] of Object.entries(services[from].depends_on)) {
    if (next === to && c === condition) return true;
    if (!seen.has(next) && (seen.add(next), waitsFor(next, to, condition, seen))) return true;
  }
  return false;
}

describe('docker compose, secured as the tests are', () => {
  const clients = Object.keys(services).filter((name) => services[name].environment.KAFKA_BROKERS);

  it('connects every Kafka client over SASL_SSL, trusting the compose CA alone', () => {
    expect(clients.sort()).toEqual([...KAFKA_SERVICES, 'demo', 'kafka-access'].sort());
    for (const name of clients) {
      const env = services[name].environment;
      expect([name, env.KAFKA_BROKERS, env.KAFKA_SSL]).toEqual([name, 'kafka:9092', 'true']);
      expect([name, env.KAFKA_SASL_MECHANISM]).toEqual([name, CLUSTER_SASL_MECHANISM]);
      expect(mountedFile(services[name], env.KAFKA_SSL_CA_FILE)).toMatchObject({
        source: 'kafka-ca',
        file: 'ca.pem',
        readOnly: true,
      });
    }
  });

  it('gives each Kafka client its own principal, the ones deploy/kafka/acls.json grants, and the ACL step the admin', () => {
    const user = (name: string) => services[name].environment.KAFKA_SASL_USERNAME;
    for (const name of KAFKA_SERVICES) expect(user(name)).toBe(name);
    expect(user('demo')).toBe('trading-ops');
    expect(user('kafka-access')).toBe(CLUSTER_ADMIN);
    const users = clients.filter((name) => name !== 'kafka-access').map(user);
    expect(users.sort()).toEqual([...principals].sort());
  });

  it("reads each client's password from the file holding the broker's SCRAM password of its principal", () => {
    const broker = services.kafka;
    const usersDir = broker.environment.SCRAM_USERS_DIR;
    const scramUsers = grants.filter(
      (g) => `secrets-${g.volume}` === mountedFile(broker, `${usersDir}/x`)?.source,
    );
    // The broker makes one SCRAM user per file: the admin and every principal of acls.json.
    expect(scramUsers.map((g) => g.file).sort()).toEqual([CLUSTER_ADMIN, ...principals].sort());
    for (const name of clients) {
      const env = services[name].environment;
      const own = secretAt(name, env.KAFKA_SASL_PASSWORD_FILE);
      expect([name, own]).toEqual([
        name,
        secretAt('kafka', `${usersDir}/${env.KAFKA_SASL_USERNAME}`),
      ]);
      expect(own).toBeDefined();
    }
  });

  it('applies deploy/kafka/acls.json, the file the tests apply, in a one-shot step every Kafka client waits for', () => {
    const step = services['kafka-access'];
    const acls = step.volumes.find((m) => resolve(m.source) === resolve(KAFKA_ACCESS_FILE));
    expect(acls).toMatchObject({ readOnly: true });
    expect(step.command).toEqual(['node', 'dist/scripts/kafka-access.js', '--file', acls!.target]);
    expect(step.depends_on.kafka).toEqual({ condition: 'service_healthy' });
    expect(step.environment.TOPIC_PREFIX).toBe('trading.');
    for (const name of clients.filter((c) => c !== 'kafka-access'))
      expect([name, waitsFor(name, 'kafka-access', 'service_completed_successfully')]).toEqual([
        name,
        true,
      ]);
    // The runtime image holds the step: the build bundles it beside the demo driver.
    expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toContain('nest build kafka-access');
  });

  it("runs the broker on the test kit's secured node settings, its HOST listener secured as the client one", () => {
    const properties = brokerProperties(services.kafka.environment);
    const kit = nodeSecurityProperties({
      mechanism: CLUSTER_SASL_MECHANISM,
      caFile: properties.get('ssl.truststore.location')!,
      keystoreFile: properties.get('ssl.keystore.location')!,
      // start-broker.sh puts the admin's password, from its file, in place of this.
      users: { [CLUSTER_ADMIN]: `@secret:${CLUSTER_ADMIN}@` },
    });
    const protocols = (map: string) => Object.fromEntries(map.split(',').map((e) => e.split(':')));
    for (const line of kit) {
      const key = line.slice(0, line.indexOf('='));
      const value = line.slice(key.length + 1);
      if (key === 'listener.security.protocol.map')
        expect(protocols(properties.get(key)!)).toMatchObject(protocols(value));
      else expect([key, properties.get(key)]).toEqual([key, value]);
    }
    const listeners = properties
      .get('listeners')!
      .split(',')
      .map((l) => l.split(':')[0]);
    expect(listeners.sort()).toEqual(['CLIENT', 'CONTROLLER', 'HOST', 'INTERNAL']);
    const map = protocols(properties.get('listener.security.protocol.map')!);
    for (const listener of listeners)
      expect([listener, map[listener]]).toEqual([listener, 'SASL_SSL']);
    const clientLogin = 'listener.name.client.scram-sha-512.sasl.jaas.config';
    expect(properties.get('listener.name.host.scram-sha-512.sasl.jaas.config')).toBe(
      properties.get(clientLogin),
    );
    // The keystore and the CA come from kafka-certs' volume.
    for (const file of [
      properties.get('ssl.keystore.location')!,
      properties.get('ssl.truststore.location')!,
    ])
      expect(mountedFile(services.kafka, file)).toMatchObject({
        source: 'kafka-tls',
        readOnly: true,
      });
    expect(services['kafka-certs'].volumes.map((m) => m.source)).toContain('kafka-tls');
    expect(services.kafka.depends_on['kafka-certs']).toEqual({
      condition: 'service_completed_successfully',
    });
  });

  it('holds no secret in any environment: each is a <NAME>_FILE that libs/config reads, in a volume of secrets', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment)) {
        expect([name, key]).not.toEqual([
          name,
          expect.stringMatching(/(PASSWORD|SECRET|TOKENS?)$/),
        ]);
        // A URL names its user, never a password.
        expect([name, value]).not.toEqual([name, expect.stringMatching(/:\/\/[^/@:]+:[^/@]+@/)]);
        if (!/_FILE$/.test(key) || key === 'KAFKA_SSL_CA_FILE') continue;
        if (name === 'mysql') expect(key).toBe('MARIADB_ROOT_PASSWORD_FILE');
        else expect(SECRET_VARIABLES).toContain(key.replace(/_FILE$/, ''));
        const mount = mountedFile(service, value);
        expect([name, key, mount?.source]).toEqual([name, key, expect.stringMatching(/^secrets-/)]);
        expect([name, key, secretAt(name, value)]).toEqual([name, key, expect.any(String)]);
      }
    }
    // Only settings with defaults are interpolated: no .env is needed, and none holds a secret.
    const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const variables = [...text.matchAll(/\$\{([A-Z_]+)(:-[^}]*)?\}/g)];
    expect(new Set(variables.map((m) => m[1]))).toEqual(new Set(['TOPIC_PREFIX', 'DEMO_ORDERS']));
    for (const m of variables) expect(m[2]).toBeDefined();
    const empty = join(mkdtempSync(join(tmpdir(), 'compose-env-')), '.env');
    writeFileSync(empty, '');
    expect(resolvedCompose(empty).demo.environment.TOPIC_PREFIX).toBe('trading.');
    rmSync(empty);
  });

  it('mounts in each container at most one volume of secrets, its own, which compose-secrets fills', () => {
    const own: Record<string, string> = {
      mysql: 'secrets-mysql',
      kafka: 'secrets-kafka',
      'kafka-access': 'secrets-kafka',
      'ops-console': 'secrets-ops',
      prometheus: 'secrets-ops',
      demo: 'secrets-demo',
    };
    for (const name of [...KAFKA_SERVICES, 'coupon-provider']) {
      own[name] = `secrets-${name}`;
      own[`${name}-migrate`] = 'secrets-migrate';
    }
    for (const [name, service] of Object.entries(services)) {
      if (name === 'compose-secrets') continue;
      const mounted = service.volumes.filter((m) => /^secrets(-|$)/.test(m.source));
      expect([name, mounted.map((m) => [m.source, m.readOnly])]).toEqual([
        name,
        own[name] ? [[own[name], true]] : [],
      ]);
    }
    const writer = services['compose-secrets'].volumes;
    for (const volume of new Set(grants.map((g) => g.volume)))
      expect(writer).toContainEqual({
        source: `secrets-${volume}`,
        target: `/secrets/${volume}`,
        readOnly: false,
      });
    expect(writer).toContainEqual({
      source: 'secrets',
      target: '/secrets/master',
      readOnly: false,
    });
    for (const name of Object.keys(own))
      expect([name, waitsFor(name, 'compose-secrets', 'service_completed_successfully')]).toEqual([
        name,
        true,
      ]);
  });

  it("gives MariaDB each user's password from the secret its service reads", () => {
    const script = readFileSync(join(ROOT, 'deploy/mysql/create-service-users.sh'), 'utf8');
    const dir = services.mysql.environment.SERVICE_USER_PASSWORDS_DIR;
    for (const name of [...KAFKA_SERVICES, 'coupon-provider']) {
      const user = name.replace(/-/g, '_');
      expect(script).toContain(`]=${user}`);
      expect(services[name].environment.DATABASE_URL).toBe(`mysql://${user}@mysql:3306/${user}`);
      const own = secretAt(name, services[name].environment.DATABASE_PASSWORD_FILE);
      expect([name, own]).toEqual([name, secretAt('mysql', `${dir}/${user}`)]);
      const migrate = services[`${name}-migrate`].environment;
      expect(secretAt(`${name}-migrate`, migrate.DATABASE_PASSWORD_FILE)).toBe(
        secretAt('mysql', `${dir}/migrator`),
      );
    }
    expect(secretAt('demo', services.demo.environment.DATABASE_PASSWORD_FILE)).toBe(
      secretAt('mysql', `${dir}/checker`),
    );
    expect(services.demo.environment.MYSQL_URL).toBe('mysql://checker@mysql:3306');
  });
});

describe("docker compose's one-shot steps, run here as compose runs them", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-steps-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('compose-secrets makes each secret once, gives every holder the same value, and keeps them on the next run', () => {
    const volumes = ['master', ...new Set(grants.map((g) => g.volume))];
    for (const volume of volumes) mkdirSync(join(dir, volume));
    const run = () =>
      execFileSync(
        'bash',
        [join(ROOT, 'deploy/secrets/make-secrets.sh'), join(ROOT, 'deploy/secrets/secrets.tsv')],
        {
          env: { PATH: process.env.PATH ?? '', SECRETS_ROOT: dir },
          stdio: 'pipe',
        },
      );
    run();
    const read = () =>
      grants.map((g) => ({ ...g, value: readFileSync(join(dir, g.volume, g.file), 'utf8') }));
    const first = read();
    for (const { value, volume, file } of first) {
      expect([volume, file, value]).toEqual([
        volume,
        file,
        expect.stringMatching(/^[0-9a-f]{48}$/),
      ]);
      expect(statSync(join(dir, volume, file)).mode & 0o777).toBe(0o444);
    }
    const bySecret = new Map<string, Set<string>>();
    for (const { secret, value } of first)
      bySecret.set(secret, (bySecret.get(secret) ?? new Set()).add(value));
    for (const [secret, values] of bySecret) expect([secret, values.size]).toEqual([secret, 1]);
    const distinct = new Set([...bySecret.values()].map((v) => [...v][0]));
    expect(distinct.size).toBe(bySecret.size);
    run();
    expect(read()).toEqual(first);
  });

  it('kafka-certs makes a CA and a broker certificate for the names clients dial, and keeps them on the next run', () => {
    for (const volume of ['ca-private', 'broker', 'ca']) mkdirSync(join(dir, volume));
    const run = () =>
      execFileSync('bash', [join(ROOT, 'deploy/kafka/make-tls.sh')], {
        env: { PATH: process.env.PATH ?? '', TLS_ROOT: dir },
        stdio: 'pipe',
      });
    run();
    const ca = new X509Certificate(readFileSync(join(dir, 'ca/ca.pem')));
    const keystore = readFileSync(join(dir, 'broker/node-keystore.pem'), 'utf8');
    expect(keystore).toMatch(/^-----BEGIN PRIVATE KEY-----[\s\S]+-----BEGIN CERTIFICATE-----/);
    const node = new X509Certificate(keystore.slice(keystore.indexOf('-----BEGIN CERTIFICATE')));
    expect(node.verify(ca.publicKey)).toBe(true);
    expect(node.subjectAltName).toContain('DNS:kafka');
    expect(node.subjectAltName).toContain('DNS:localhost');
    expect(readFileSync(join(dir, 'broker/ca.pem'), 'utf8')).toBe(ca.toString());
    // The CA's key stays in its own volume.
    expect(() => statSync(join(dir, 'broker/ca.key'))).toThrow();
    expect(() => statSync(join(dir, 'ca/ca.key'))).toThrow();
    run();
    expect(readFileSync(join(dir, 'broker/node-keystore.pem'), 'utf8')).toBe(keystore);
  });
});
