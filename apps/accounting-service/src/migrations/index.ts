import { InboxMigrations } from '@outbox-inbox/inbox';
import { CreateLedgerTables1764800000000 } from './1764800000000-create-ledger-tables';
import { CreateLedgerCurrencyTable1765400000000 } from './1765400000000-create-ledger-currency-table';

/** Every migration of the accounting-service, in order; run by `main.js migrate` and the test harness. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const AccountingMigrations: Function[] = [
  ...InboxMigrations,
  CreateLedgerTables1764800000000,
  CreateLedgerCurrencyTable1765400000000,
];
