/** Mounts the /outbox operator endpoints; import it beside OutboxModule. */
export { OutboxHttpModule } from './outbox-http.module';
export type { OutboxHttpOptions } from './outbox-http.module';
/** The /outbox HTTP controller (mounted by OutboxHttpModule). */
export { OutboxHttpController } from './outbox.http.controller';
/** The relay options from a service's OUTBOX_* environment variables. */
export { relayOptionsFromEnv } from './relay-env';
export type { OutboxRelayEnv } from './relay-env';
