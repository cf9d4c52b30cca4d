import { EventHeader } from '@outbox-inbox/messaging';
import { Injectable } from '@nestjs/common';
import { InboxMessageScope } from '@outbox-inbox/inbox';
import { acceptCorrelationId, runWithCorrelation } from './correlation-context';

/**
 * Settles each inbox message under the correlation id of its `correlation-id` header, so the
 * lines written while it is retried or dead-lettered name the flow it belongs to, as the
 * handler's own lines do. The header passes the rule HTTP's `x-correlation-id` does
 * (acceptCorrelationId): a malformed or oversized one is replaced by a fresh id and never
 * reaches a log line. A message without the header is settled without one.
 */
@Injectable()
export class CorrelatedMessageScope extends InboxMessageScope {
  run<T>(headers: Readonly<Record<string, string>>, settle: () => Promise<T>): Promise<T> {
    const header = headers[EventHeader.correlationId];
    return header === undefined
      ? settle()
      : runWithCorrelation(acceptCorrelationId(header), settle);
  }
}
