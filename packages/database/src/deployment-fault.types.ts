/**
 * What a half-done deployment lacks: a table or a column its migrations create, or a privilege
 * the service's database user needs. No message is at fault, and no retry in place heals it;
 * running the migrations or granting the privilege does.
 */
export interface DeploymentFault {
  kind: 'table' | 'column' | 'grant';
  /**
   * The missing table or column, or the refused privilege and what it was refused on, in the
   * server's words: `t_inbox`, `t_inbox.duplicate_count`, `INSERT on t_inbox`, `table t_inbox`.
   */
  subject: string;
  /** The server's code: ER_NO_SUCH_TABLE (1146), ER_BAD_FIELD_ERROR (1054), 42P01, 42501… */
  code: string;
}
