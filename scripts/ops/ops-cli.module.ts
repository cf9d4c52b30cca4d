import { Module } from '@nestjs/common';
import { CheckInvariantsCommand } from './commands/check-invariants.command';
import { DlqListCommand } from './commands/dlq-list.command';
import { DlqReplayCommand } from './commands/dlq-replay.command';
import { GapSkipCommand } from './commands/gap-skip.command';
import { InboxStatsCommand } from './commands/inbox-stats.command';
import { OutboxDeadCommand } from './commands/outbox-dead.command';
import { OutboxRequeueCommand } from './commands/outbox-requeue.command';
import { OutboxStatsCommand } from './commands/outbox-stats.command';
import { PruneInboxCommand } from './commands/prune-inbox.command';
import { PruneOutboxCommand } from './commands/prune-outbox.command';
import { Confirmation } from './confirm';
import { OpsHttp } from './ops-http';

/** Every `npm run ops` subcommand and what they share. */
@Module({
  providers: [
    OpsHttp,
    Confirmation,
    OutboxStatsCommand,
    OutboxDeadCommand,
    OutboxRequeueCommand,
    InboxStatsCommand,
    DlqListCommand,
    DlqReplayCommand,
    GapSkipCommand,
    PruneOutboxCommand,
    PruneInboxCommand,
    CheckInvariantsCommand,
  ],
})
export class OpsCliModule {}
