import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LedgerCurrencyNotOpenError } from './domain/ledger.errors';

/**
 * The currencies finance has opened the ledger in (`t_ledger_currency`). The order-service
 * sells in any ISO 4217 currency; the ledger books only in these, so a new market cannot
 * silently open accounts nobody set up. Opening one is a row in the table; it takes effect at
 * the next booking, with no restart, and its dead-lettered events are then replayed.
 */
@Injectable()
export class LedgerCurrencies {
  // Only open currencies are remembered: the set only grows (no route closes one), and a miss
  // reads the table again, so a currency opened meanwhile is seen at once.
  private readonly open = new Set<string>();

  /** Resolves when `currency` is open; throws LedgerCurrencyNotOpenError otherwise. */
  async requireOpen(manager: EntityManager, currency: string): Promise<void> {
    if (this.open.has(currency)) return;
    const rows: Array<{ currency: string }> = await manager.query(
      'SELECT currency FROM t_ledger_currency',
    );
    for (const row of rows) this.open.add(row.currency);
    if (!this.open.has(currency)) throw new LedgerCurrencyNotOpenError(currency);
  }
}
