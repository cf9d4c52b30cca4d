import { join } from 'node:path';
import { driversLoadedBy } from '@outbox-inbox/test-kit';

// An adopter on PostgreSQL installs pg and not mysql2, and the reverse: the inbox's entry
// loads neither driver, and neither does building an inbox for a DataSource of either engine
// (its SQL is text; the DataSource itself loads its own driver when it is created).
const ENTRY = join(__dirname, 'index.ts');
const CREATE_INBOX = join(__dirname, 'create-inbox.ts');

describe("the inbox package's entry", () => {
  it('loads neither mysql2 nor pg', () => {
    expect(driversLoadedBy(ENTRY)).toEqual([]);
  });

  it.each(['postgres', 'mariadb'])(
    'loads no driver when an inbox is built on a %s DataSource',
    (type) => {
      const build = `
      const { createInbox } = require(${JSON.stringify(CREATE_INBOX)});
      const options = entry.resolveInboxOptions({
        consumer: 'c', topics: ['t'], kafka: { clientId: 'c', brokers: ['127.0.0.1:1'] },
        registry: { find: () => undefined },
      });
      createInbox({ options, dataSource: { options: { type: '${type}', extra: {} } } });
    `;
      expect(driversLoadedBy(ENTRY, build)).toEqual([]);
    },
  );
});
