import type { DeploymentFault } from '@outbox-inbox/database';

/** What the inbox's tables need: the privileges every one of them must grant the service. */
const INBOX_PRIVILEGES = 'SELECT, INSERT, UPDATE, DELETE on the t_inbox* tables';

/**
 * What an operator runs or grants to clear a deployment fault the consumer met: the inbox's
 * migrations for its own tables, the service's migrations for the handlers' tables, a GRANT
 * for a refused privilege.
 */
export function inboxRemedy(fault: DeploymentFault): string {
  if (fault.kind === 'grant') {
    // MySQL names the privilege ("INSERT on t_inbox"), PostgreSQL only the table ("table t_inbox").
    const privilege = /^[A-Z]+ on /.test(fault.subject) ? fault.subject : INBOX_PRIVILEGES;
    return `grant this service's database user ${privilege}`;
  }
  return /^t_inbox/.test(fault.subject)
    ? "run InboxMigrations (@outbox-inbox/inbox) on this service's database"
    : "run this service's migrations: a handler needs it";
}

/** The fault in a few words: "table t_inbox is missing", "INSERT on t_inbox is not granted". */
export function describeFault(fault: DeploymentFault): string {
  return fault.kind === 'grant'
    ? `${fault.subject} is not granted`
    : `${fault.kind} ${fault.subject} is missing`;
}
