import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// An adopter on PostgreSQL installs pg and not mysql2, and the reverse: the outbox's entry
// loads neither driver, and neither does wiring its parts for a DataSource of either engine
// (their SQL is text; the DataSource itself loads its own driver when it is created).
const ROOT = join(__dirname, '../../..');
const ENTRY = join(ROOT, 'packages/outbox/src/index.ts');

/** The drivers loaded by requiring the outbox's entry (then running `then`) in a fresh Node. */
function driversLoaded(then = ''): string[] {
  const script = `
    const outbox = require(${JSON.stringify(ENTRY)});
    ${then}
    const loaded = Object.keys(require.cache)
      .map((file) => /node_modules\\/(mysql2|pg)\\//.exec(file)?.[1])
      .filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
  `;
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

describe("the outbox package's entry", () => {
  it('loads neither mysql2 nor pg', () => {
    expect(driversLoaded()).toEqual([]);
  });

  it.each(['postgres', 'mariadb'])(
    'loads no driver when its parts are wired for a %s DataSource',
    (type) => {
      const wire = `
        const dataSource = { options: { type: '${type}' } };
        new outbox.OutboxOperations(dataSource, 'block');
        outbox.createOutboxRelay({
          dataSource, topicFor: () => 't', publisher: { missingTopics: async () => [] },
          ownConnections: 0,
        });
      `;
      expect(driversLoaded(wire)).toEqual([]);
    },
  );
});
