import { ConsumerTarget, InvariantTargets } from '../invariant-targets';
import { DatabaseSnapshot } from './database-snapshot';

/** A consumer as the checker reads it: its target and whether its inbox was ever pruned. */
export interface ConsumerState extends ConsumerTarget {
  /** The aggregate types of its topics. */
  aggregateTypes: string[];
  /** Its prune watermark (t_inbox_prune), or null while nothing was pruned. */
  prunedBefore: Date | null;
  db: DatabaseSnapshot;
}

/** Every service database of a deployment, each in its snapshot, opened downstream first. */
export interface DeploymentSnapshot {
  order: DatabaseSnapshot;
  fulfillment: DatabaseSnapshot;
  accounting: DatabaseSnapshot;
  coupons: DatabaseSnapshot;
  consumers: ConsumerState[];
  close(): Promise<void>;
}

/**
 * Opens the snapshots downstream first (ledger, fulfillment, coupon provider, orders), so that
 * an effect seen in one is never ahead of its cause in the next: whatever a consumer recorded,
 * the snapshot of its upstream, opened later, already holds.
 */
export async function openDeployment(targets: InvariantTargets): Promise<DeploymentSnapshot> {
  const { mysqlUrl, databases } = targets;
  const opened: DatabaseSnapshot[] = [];
  const open = async (database: string) => {
    const db = await DatabaseSnapshot.open(mysqlUrl, database);
    opened.push(db);
    return db;
  };
  const close = async () => {
    await Promise.all(opened.map((db) => db.close().catch(() => undefined)));
  };
  try {
    const accounting = await open(databases.accounting);
    const fulfillment = await open(databases.fulfillment);
    const coupons = await open(databases.couponProvider);
    const order = await open(databases.order);
    const byDatabase = new Map([
      [databases.accounting, accounting],
      [databases.fulfillment, fulfillment],
    ]);
    const consumers: ConsumerState[] = [];
    for (const c of targets.consumers) {
      const db = byDatabase.get(c.database);
      if (!db) throw new Error(`consumer ${c.name}: database ${c.database} is not a target`);
      consumers.push({
        ...c,
        aggregateTypes: c.topics.map((t) => aggregateTypeOf(targets, t)),
        prunedBefore: await prunedBefore(db, c.name),
        db,
      });
    }
    return { order, fulfillment, accounting, coupons, consumers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function aggregateTypeOf(targets: InvariantTargets, topic: string): string {
  if (topic === targets.topics.order) return 'Order';
  if (topic === targets.topics.fulfillment) return 'Fulfillment';
  throw new Error(`topic ${topic} is not an event topic of the deployment`);
}

async function prunedBefore(db: DatabaseSnapshot, consumer: string): Promise<Date | null> {
  if (!(await db.hasTable('t_inbox_prune'))) return null;
  const [row] = await db.query('SELECT pruned_before FROM t_inbox_prune WHERE consumer = ?', [
    consumer,
  ]);
  return row ? new Date(row.pruned_before as Date) : null;
}
