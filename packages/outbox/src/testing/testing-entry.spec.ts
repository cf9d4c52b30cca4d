import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('@outbox-inbox/outbox/testing outside Jest', () => {
  it('loads without @jest/globals, which throws when loaded outside a Jest test', () => {
    // A script (bench/relay) takes the in-memory publisher and the SQL per engine from this entry.
    const child = spawnSync(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        '-e',
        `const t = require(${JSON.stringify(join(__dirname, 'index.ts'))});
         if (typeof t.InMemoryOutboxPublisher !== 'function' || typeof t.outboxSqlOf !== 'function') process.exit(2);`,
      ],
      { cwd: join(__dirname, '..', '..', '..', '..'), encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
  });
});
