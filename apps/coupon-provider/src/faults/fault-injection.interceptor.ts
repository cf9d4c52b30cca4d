import { IncomingMessage } from 'node:http';
import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  ServiceUnavailableException,
} from '@nestjs/common';
import { delay } from '@outbox-inbox/database';
import { defer, mergeMap, Observable, tap } from 'rxjs';
import { FaultInjector } from './fault-injector';

/**
 * Wraps the provider's business routes with the configured faults: latency and failure before
 * the handler (nothing committed), and "commit, then drop the reply" after it: the handler has
 * committed, and the socket is destroyed before a byte of the answer is written, so the caller
 * cannot tell whether the grant happened.
 */
@Injectable()
export class FaultInjectionInterceptor implements NestInterceptor {
  constructor(private readonly faults: FaultInjector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    return defer(async () => {
      const latency = this.faults.latencyMs();
      if (latency > 0) await delay(latency);
      if (this.faults.shouldFail()) throw new ServiceUnavailableException('injected failure');
    }).pipe(
      mergeMap(() => next.handle()),
      tap(() => {
        if (this.faults.shouldDropReply()) request.socket.destroy();
      }),
    );
  }
}
