/** Mounts the /outbox operator endpoints; import it beside OutboxModule. */
export { OutboxHttpModule } from './outbox-http.module';
export type { OutboxHttpOptions } from './outbox-http.module';
/** The /outbox HTTP controller (mounted by OutboxHttpModule). */
export { OutboxHttpController } from './outbox.http.controller';
