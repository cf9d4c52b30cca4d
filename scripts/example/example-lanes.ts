import {
  createPostgresTestDatabase,
  createTestDatabase,
  TestDatabase,
  TestEnvironment,
} from '@outbox-inbox/test-kit';

/** One lane of the example matrix: a directory of examples/ with its own manifest and lockfile. */
export interface ExampleLane {
  /** Its directory under examples/, and the name its PASS/FAIL line carries. */
  name: string;
  /** The one database driver it installs; the other must not be resolvable. */
  driver: 'pg' | 'mysql2';
  otherDriver: 'pg' | 'mysql2';
  /** The lane's npm scripts, in order, after the install: build, migrations, tests. */
  scripts: string[];
  createDatabase(env: TestEnvironment): Promise<TestDatabase>;
}

/** The lanes `npm run test:example` runs, in this order. */
export const EXAMPLE_LANES: ExampleLane[] = [
  {
    // An ES module app; its migrations run at start (migrationsRun), its test under Jest's
    // ES module mode and under Vitest.
    name: 'nest12-typeorm1-postgres-apache',
    driver: 'pg',
    otherDriver: 'mysql2',
    scripts: ['build', 'test'],
    createDatabase: () => createPostgresTestDatabase('nest12_lane'),
  },
  {
    // A CommonJS app; its migrations run through the TypeORM CLI before it starts.
    name: 'nest11-typeorm03-mariadb',
    driver: 'mysql2',
    otherDriver: 'pg',
    scripts: ['build', 'migrate', 'test'],
    createDatabase: (env) => createTestDatabase(env.infra.mysqlUrl, 'nest11_lane'),
  },
];
