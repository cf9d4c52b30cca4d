import { join } from 'node:path';
import { driversLoadedBy } from '@outbox-inbox/test-kit';

// An adopter on PostgreSQL installs pg and not mysql2, and the reverse: the outbox's entry
// loads neither driver, and neither does wiring its parts for a DataSource of either engine
// (their SQL is text; the DataSource itself loads its own driver when it is created).
const ENTRY = join(__dirname, 'index.ts');

describe("the outbox package's entry", () => {
  it('loads neither mysql2 nor pg', () => {
    expect(driversLoadedBy(ENTRY)).toEqual([]);
  });

  it.each(['postgres', 'mariadb'])(
    'loads no driver when its parts are wired for a %s DataSource',
    (type) => {
      const wire = `
        const dataSource = { options: { type: '${type}' } };
        new entry.OutboxOperations(dataSource, 'block');
        entry.createOutboxRelay({
          dataSource, topicFor: () => 't', publisher: { missingTopics: async () => [] },
          ownConnections: 0,
        });
      `;
      expect(driversLoadedBy(ENTRY, wire)).toEqual([]);
    },
  );
});
