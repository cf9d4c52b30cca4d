/** DI token of the OutboxModule options, as the app gave them (the name Nest's builder gives it). */
export const OUTBOX_MODULE_OPTIONS = 'OUTBOX_MODULE_OPTIONS';
/** DI token of the DataSource the outbox works on. */
export const OUTBOX_DATA_SOURCE = Symbol('OUTBOX_DATA_SOURCE');
