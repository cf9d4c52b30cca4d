/** One statement on the inbox's tables and its values, in the placeholders of its engine. */
export interface InboxQuery {
  sql: string;
  params: unknown[];
}
