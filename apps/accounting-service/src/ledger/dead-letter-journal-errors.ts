import { NonRetryableError } from '@outbox-inbox/inbox';
import { JournalError, LedgerCurrencyNotOpenError } from './domain/ledger.errors';

/**
 * Runs a booking for an inbox handler. A JournalError means the event cannot make a balanced
 * journal however often it is retried, and a LedgerCurrencyNotOpenError that it cannot be
 * booked until someone opens its currency: either becomes a NonRetryableError, so the inbox
 * sends the event to the dead-letter topic at once (listed and replayable after the fix)
 * instead of retrying it. Every other error (deadlocks, lost connections) stays retryable.
 */
export async function deadLetterJournalErrors<T>(booking: () => Promise<T>): Promise<T> {
  try {
    return await booking();
  } catch (error) {
    if (error instanceof JournalError || error instanceof LedgerCurrencyNotOpenError) {
      throw new NonRetryableError(`${error.code}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
