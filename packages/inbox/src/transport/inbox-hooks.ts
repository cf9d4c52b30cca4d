import { DeliveryPosition } from '../inbox.options';

/**
 * Fault-injection and measuring points for tests: provided under INBOX_HOOKS by
 * InboxHooksModule (`@outbox-inbox/inbox/testing`), never part of InboxModule's options.
 */
export interface InboxHooks {
  /**
   * Runs after a message's inbox transaction committed and before its offset commit. It does
   * not run for a message that was dead-lettered: no transaction of it committed.
   */
  afterTransactionCommit?: (position: DeliveryPosition) => void | Promise<void>;
}

/** DI token of the InboxHooks; InboxModule takes them when a (global) module provides them. */
export const INBOX_HOOKS = Symbol('INBOX_HOOKS');
