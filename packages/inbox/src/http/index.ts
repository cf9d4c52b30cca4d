/** Mounts the /inbox operator endpoints; import it beside InboxModule. */
export { InboxHttpModule } from './inbox-http.module';
export type { InboxHttpOptions } from './inbox-http.module';
/** The /inbox HTTP controller (mounted by InboxHttpModule). */
export { InboxHttpController } from './inbox.http.controller';
