import { join } from 'node:path';
import { driversLoadedBy } from '@outbox-inbox/test-kit';

// An adopter on PostgreSQL installs pg and not mysql2, and the reverse: the package's entry
// must load neither driver, only the subpath of the engine a DataSource names does.
describe("the database package's entry", () => {
  const entry = join(__dirname, 'index.ts');

  it('loads neither mysql2 nor pg', () => {
    expect(driversLoadedBy(entry)).toEqual([]);
  });

  it('loads only the driver of the engine a DataSource names, when its dialect is asked for', () => {
    const dialectOf = (type: string) => `entry.sqlDialectOf({ options: { type: '${type}' } });`;
    expect(driversLoadedBy(entry, dialectOf('postgres'))).toEqual(['pg']);
    expect(driversLoadedBy(entry, dialectOf('mariadb'))).toEqual(['mysql2']);
  });
});
