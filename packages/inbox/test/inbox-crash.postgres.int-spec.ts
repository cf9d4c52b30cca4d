import { crashAfterCommitCases } from './fixtures/crash-after-commit';
import { useInboxTestBed } from './fixtures/inbox-test-app';

describe('Inbox under a crash, on PostgreSQL', () => {
  crashAfterCommitCases(useInboxTestBed('inbox_pg_crash', { engine: 'postgres' }));
});
