import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, escape } from 'mysql2/promise';

/** The file compose applies too (deploy/mysql/create-service-users.sh): one source of grants. */
export const SERVICE_USERS_SQL = join(
  __dirname,
  '..',
  '..',
  '..',
  'deploy',
  'mysql',
  'service-users.sql',
);

/** A service's database, without the prefix. */
export type ServiceDatabaseName =
  'order_service' | 'fulfillment_service' | 'accounting_service' | 'coupon_provider';

/** The variable of service-users.sql that holds each database user's password. */
const PASSWORD_VARIABLES: Record<ServiceDatabaseName | 'migrator', string> = {
  migrator: 'MIGRATOR_DB_PASSWORD',
  order_service: 'ORDER_DB_PASSWORD',
  fulfillment_service: 'FULFILLMENT_DB_PASSWORD',
  accounting_service: 'ACCOUNTING_DB_PASSWORD',
  coupon_provider: 'COUPON_DB_PASSWORD',
};

/** The databases and users service-users.sql made under one prefix, with their URLs. */
export interface ServiceDatabaseUsers {
  prefix: string;
  /** The service's own login on its own database: its DATABASE_URL. */
  serviceUrl(database: ServiceDatabaseName, host?: string): string;
  /** The schema owner on the service's database: its DATABASE_MIGRATE_URL. */
  migrateUrl(database: ServiceDatabaseName): string;
  /** Every user the file made (not the databases). */
  users: string[];
  /** Drops the users (the databases stay: their owner drops them). */
  drop(): Promise<void>;
}

/**
 * service-users.sql with its `${NAME}` placeholders filled in: `PREFIX` as it is (a plain
 * name prefix), every other value escaped for the quoted string it stands in. Comment lines
 * go, and a placeholder left without a value is an error rather than a user named `${…}`.
 */
export function renderServiceUsersSql(
  values: Record<string, string>,
  template = readFileSync(SERVICE_USERS_SQL, 'utf8'),
): string {
  if (!/^[A-Za-z0-9_]*$/.test(values.PREFIX ?? ''))
    throw new Error(`service-users.sql: PREFIX "${values.PREFIX}" is not a plain name prefix`);
  const statements = template
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n');
  return statements.replace(/\$\{([A-Z_]+)\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`service-users.sql: ${placeholder} has no value`);
    return name === 'PREFIX' ? value : escape(value).slice(1, -1);
  });
}

/**
 * Applies service-users.sql on the server at `serverUrl` (as root, or a user allowed to create
 * users) under `prefix`, each user with a random password of this run: the four databases,
 * their schema owner and one least-privilege user per service.
 */
export async function createServiceDatabaseUsers(
  serverUrl: string,
  prefix: string,
): Promise<ServiceDatabaseUsers> {
  const server = serverUrl.replace(/\/+$/, '');
  const passwords = Object.fromEntries(
    Object.keys(PASSWORD_VARIABLES).map((user) => [user, randomBytes(18).toString('base64url')]),
  ) as Record<keyof typeof PASSWORD_VARIABLES, string>;
  const values: Record<string, string> = { PREFIX: prefix };
  for (const [user, variable] of Object.entries(PASSWORD_VARIABLES))
    values[variable] = passwords[user as keyof typeof PASSWORD_VARIABLES];
  const sql = renderServiceUsersSql(values);
  const users = [...sql.matchAll(/CREATE USER (?:IF NOT EXISTS )?'([^']+)'@'%'/g)].map((m) => m[1]);
  await runAsAdmin(server, sql);

  const urlOf = (user: keyof typeof PASSWORD_VARIABLES, database: string, host?: string) => {
    const url = new URL(server);
    url.username = `${prefix}${user}`;
    url.password = passwords[user];
    if (host) url.host = host;
    return `${url.toString().replace(/\/+$/, '')}/${prefix}${database}`;
  };
  return {
    prefix,
    serviceUrl: (database, host) => urlOf(database, database, host),
    migrateUrl: (database) => urlOf('migrator', database),
    users,
    drop: () =>
      runAsAdmin(server, users.map((user) => `DROP USER IF EXISTS '${user}'@'%';`).join('\n')),
  };
}

async function runAsAdmin(serverUrl: string, sql: string): Promise<void> {
  const connection = await createConnection({
    uri: serverUrl,
    multipleStatements: true,
    connectTimeout: 5_000,
  });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/**
 * The privileges service-users.sql grants `service`'s own user on its database, as written
 * there ("SELECT, INSERT, UPDATE, DELETE").
 */
export function servicePrivileges(
  service: ServiceDatabaseName,
  template = readFileSync(SERVICE_USERS_SQL, 'utf8'),
): string {
  const grant = new RegExp(
    `^GRANT ([A-Z, ]+) ON \`\\$\\{PREFIX\\}${service}\`\\.\\* TO '\\$\\{PREFIX\\}${service}'@'%';$`,
    'm',
  ).exec(template);
  if (!grant) throw new Error(`service-users.sql grants ${service}'s user nothing`);
  return grant[1];
}

/** A login made for one test, on one database. */
export interface ServiceUser {
  /** The database's URL as this user. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A user of its own on `databaseUrl`'s database (a test's, made by root) holding what
 * service-users.sql gives `service`'s user and nothing more: for a test that starts one
 * service in-process, which then runs as a deployment runs it. Drop it when the test ends.
 */
export async function createServiceUser(
  databaseUrl: string,
  service: ServiceDatabaseName,
): Promise<ServiceUser> {
  const url = new URL(databaseUrl);
  const database = url.pathname.replace(/^\//, '');
  const server = `${url.protocol}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}`;
  const name = `u_${randomBytes(5).toString('hex')}`;
  const password = randomBytes(18).toString('base64url');
  await runAsAdmin(
    server,
    `CREATE USER '${name}'@'%' IDENTIFIED BY '${password}';
     GRANT ${servicePrivileges(service)} ON \`${database}\`.* TO '${name}'@'%';`,
  );
  url.username = name;
  url.password = password;
  return {
    url: url.toString(),
    drop: () => runAsAdmin(server, `DROP USER IF EXISTS '${name}'@'%'`),
  };
}
