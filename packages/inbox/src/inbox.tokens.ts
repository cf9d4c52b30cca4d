/** DI token of the resolved InboxModule options. */
export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');
/** DI token of the DataSource the inbox works on. */
export const INBOX_DATA_SOURCE = Symbol('INBOX_DATA_SOURCE');
/** DI token of the inbox createInbox built (its transport, operations, dead letters, metrics). */
export const INBOX = Symbol('INBOX');
