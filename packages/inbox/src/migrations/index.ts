import { CreateInboxTables1764700000000 } from './1764700000000-create-inbox-tables';
import { AddInboxDuplicateCount1764900000000 } from './1764900000000-add-inbox-duplicate-count';
import { CreateInboxPruneWatermark1765100000000 } from './1765100000000-create-inbox-prune-watermark';
import { CreateInboxSkipTable1765100000100 } from './1765100000100-create-inbox-skip-table';
import { InboxOperatorAuditTable1765300000200 } from './1765300000200-inbox-operator-audit-table';
import { InboxKeysByteForByte1765400000000 } from './1765400000000-inbox-keys-byte-for-byte';

/**
 * The inbox's schema migrations, in order; add them to the service's migrations list. They
 * create the operator audit log's table too, which replays and gap skips write to.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const InboxMigrations: Function[] = [
  CreateInboxTables1764700000000,
  AddInboxDuplicateCount1764900000000,
  CreateInboxPruneWatermark1765100000000,
  CreateInboxSkipTable1765100000100,
  InboxOperatorAuditTable1765300000200,
  InboxKeysByteForByte1765400000000,
];
