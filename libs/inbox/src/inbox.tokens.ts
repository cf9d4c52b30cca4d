/** DI token of the resolved InboxModule options. */
export const INBOX_OPTIONS = Symbol('INBOX_OPTIONS');
