import { ConfigError } from './config.error';
import { MigrateEnv, migrationUrl } from './migrate-env';
import { validateEnv } from './validate-env';

const OWNER = 'mysql://migrator:owner-secret@db:3306/order_service';
const SERVICE = 'mysql://order_service:service-secret@db:3306/order_service';

describe('MigrateEnv: what `main.js migrate` reads', () => {
  it("migrates as DATABASE_MIGRATE_URL's owner when it is set", () => {
    expect(migrationUrl(validateEnv(MigrateEnv, { DATABASE_MIGRATE_URL: OWNER }))).toBe(OWNER);
    expect(
      migrationUrl(validateEnv(MigrateEnv, { DATABASE_MIGRATE_URL: OWNER, DATABASE_URL: SERVICE })),
    ).toBe(OWNER);
  });

  it("migrates as DATABASE_URL's user when no owner is configured", () => {
    expect(migrationUrl(validateEnv(MigrateEnv, { DATABASE_URL: SERVICE }))).toBe(SERVICE);
  });

  it("needs none of the service's other settings (tokens, Kafka)", () => {
    const env = validateEnv(MigrateEnv, { DATABASE_MIGRATE_URL: OWNER, PATH: '/bin' });
    expect(env).not.toHaveProperty('PATH');
  });

  it('refuses neither URL, a malformed one, and two URLs that name different databases', () => {
    expect(() => validateEnv(MigrateEnv, {})).toThrow(/DATABASE_MIGRATE_URL/);
    expect(() => validateEnv(MigrateEnv, { DATABASE_MIGRATE_URL: 'postgres://x' })).toThrow(
      ConfigError,
    );
    expect(() =>
      migrationUrl(
        validateEnv(MigrateEnv, {
          DATABASE_MIGRATE_URL: OWNER,
          DATABASE_URL: SERVICE.replace(/order_service$/, 'accounting_service'),
        }),
      ),
    ).toThrow(/both must name the service's database/);
  });

  it('never echoes a password in its messages', () => {
    let message = '';
    try {
      migrationUrl(
        validateEnv(MigrateEnv, {
          DATABASE_MIGRATE_URL: OWNER,
          DATABASE_URL: SERVICE.replace(/order_service$/, 'other'),
        }),
      );
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/DATABASE_MIGRATE_URL/);
    expect(message).not.toMatch(/secret/);
  });
});
