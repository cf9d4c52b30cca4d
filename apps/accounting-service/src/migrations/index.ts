import { InboxMigrations } from '@outbox-inbox/inbox';
import { CreateLedgerTables1764800000000 } from './1764800000000-create-ledger-tables';

/** Every migration of the accounting-service, in order; run by `main.js migrate` and the test harness. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const AccountingMigrations: Function[] = [
  ...InboxMigrations,
  CreateLedgerTables1764800000000,
];
