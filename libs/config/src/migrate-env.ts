import 'reflect-metadata';
import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { ConfigError } from './config.error';

const MYSQL_DATABASE_URL = /^mysql:\/\/[^/]+\/[A-Za-z0-9_]{1,64}$/;

/**
 * What `main.js migrate` reads, and nothing more: a migrate step runs as the schema owner and
 * needs neither the service's secrets nor its Kafka. DATABASE_MIGRATE_URL when set (the owner:
 * CREATE, ALTER, INDEX, DROP on the service's database), else DATABASE_URL, whose user then
 * needs those privileges too. The service itself never migrates: it starts on the schema the
 * migrate step left, as its own user (docs/operations.md, "Database users and grants").
 */
export class MigrateEnv {
  /** mysql://owner:password@host:port/database: the schema owner on the service's database. */
  @ValidateIf((env: MigrateEnv) => env.DATABASE_MIGRATE_URL !== undefined || !env.DATABASE_URL)
  @Matches(MYSQL_DATABASE_URL, {
    message: 'must be mysql://user:password@host:port/database (or give DATABASE_URL)',
  })
  DATABASE_MIGRATE_URL?: string;

  /** The service's own URL: migrated with when DATABASE_MIGRATE_URL is not set. */
  @ValidateIf((env: MigrateEnv) => env.DATABASE_URL !== undefined)
  @Matches(MYSQL_DATABASE_URL, { message: 'must be mysql://user:password@host:port/database' })
  DATABASE_URL?: string;

  /**
   * DATABASE_URL's password, when the URL carries none: declared so that validateEnv reads it
   * (and DATABASE_PASSWORD_FILE) for the migrate step as it does for the service.
   */
  @IsOptional()
  @IsString()
  DATABASE_PASSWORD?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';
}

/**
 * The URL the migrations connect with: DATABASE_MIGRATE_URL, else DATABASE_URL. With both set
 * they must name one database: migrating another than the service reads would leave the
 * service on a schema nobody migrated.
 */
export function migrationUrl(env: MigrateEnv): string {
  const { DATABASE_MIGRATE_URL: owner, DATABASE_URL: service } = env;
  if (owner && service && databaseOf(owner) !== databaseOf(service))
    throw new ConfigError([
      `DATABASE_MIGRATE_URL: names database "${databaseOf(owner)}", DATABASE_URL "${databaseOf(service)}"; both must name the service's database`,
    ]);
  const url = owner ?? service;
  if (!url) throw new ConfigError(['DATABASE_MIGRATE_URL: set it, or DATABASE_URL']);
  return url;
}

function databaseOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}
