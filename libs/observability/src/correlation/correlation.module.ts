import { Global, Module } from '@nestjs/common';
import { InboxMessageScope } from '@outbox-inbox/inbox';
import { CorrelatedMessageScope } from './correlated-message-scope';

/**
 * Global, so that the inbox (which does not import observability) finds the scope its messages
 * are settled in: under their correlation id.
 */
@Global()
@Module({
  providers: [{ provide: InboxMessageScope, useClass: CorrelatedMessageScope }],
  exports: [InboxMessageScope],
})
export class CorrelationModule {}
