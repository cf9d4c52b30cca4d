import { EventHeader } from '@outbox-inbox/messaging';
import { Injectable } from '@nestjs/common';
import { InboxMessageScope } from '@outbox-inbox/inbox';
import { runWithCorrelation } from './correlation-context';

/**
 * Settles each inbox message under the correlation id of its `correlation-id` header, so the
 * lines written while it is retried or dead-lettered name the flow it belongs to, as the
 * handler's own lines do.
 */
@Injectable()
export class CorrelatedMessageScope extends InboxMessageScope {
  run<T>(headers: Readonly<Record<string, string>>, settle: () => Promise<T>): Promise<T> {
    const correlationId = headers[EventHeader.correlationId];
    return correlationId ? runWithCorrelation(correlationId, settle) : settle();
  }
}
