import { isDuplicateKeyError } from '@outbox-inbox/database';
import { OrderConcurrentUpdateError } from './domain/order.errors';

/** Attempts, the first included, before a conflict is let through as an error. */
const MAX_ATTEMPTS = 8;

/**
 * Runs `attempt` (a whole transaction) again when it lost a race: a unique key taken by a
 * concurrent request (Idempotency-Key, notifyId) or an order row changed under our
 * compare-and-set. The rerun reads the winner's committed rows (READ COMMITTED) and answers
 * from them, so concurrent duplicates end in one transition and the same answer.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const lostRace = isDuplicateKeyError(error) || error instanceof OrderConcurrentUpdateError;
      if (!lostRace || n >= MAX_ATTEMPTS) throw error;
    }
  }
}
