import { dateOrNull, DatabaseSnapshot, str, strOrNull } from '../read/database-snapshot';
import { partitionOfKey } from '../read/event-stream';
import { CheckContext } from './check-context';

const DUPLICATES_LISTED = 50;

/**
 * Streams each producing service's outbox by id. A SENT row's event is in its topic unless the
 * topic's retention passed it (`sent-event-is-in-topic`); a row of an aggregate that does not
 * exist matches no history (`outbox-row-matches-history`; rows of existing aggregates are
 * compared by the order pass); DEAD and unsent rows are listed, and unsent ones are in flight.
 */
export async function outboxPass(context: CheckContext): Promise<void> {
  const { deployment, targets } = context;
  await serviceOutbox(context, 'order-service', deployment.order, targets.topics.order);
  await serviceOutbox(
    context,
    'fulfillment-service',
    deployment.fulfillment,
    targets.topics.fulfillment,
  );
}

async function serviceOutbox(
  context: CheckContext,
  service: string,
  db: DatabaseSnapshot,
  topic: string,
): Promise<void> {
  const { findings, quiescent } = context;
  const keys = context.topicKeys.get(topic);
  const ranges = context.rangesAfter.get(topic) ?? [];
  const pages = db.pages(
    `SELECT id, event_key, aggregate_type, aggregate_id, status, last_error, sent_at FROM t_outbox
     WHERE id > ? ORDER BY id LIMIT ?`,
    (r) => str(r.id),
    '0',
    context.pageSize,
  );
  for await (const rows of pages) {
    for (const r of rows) {
      const name = `${service} outbox ${str(r.id)} ${str(r.event_key)}`;
      const status = str(r.status);
      if (status === 'DEAD')
        findings.list('deadOutboxRows', `${name}: ${strOrNull(r.last_error) ?? ''}`);
      if (status === 'NEW' || status === 'SENDING') {
        findings.list('unsentOutboxRows', `${service} outbox ${str(r.id)} ${status}`);
        if (quiescent) findings.violate('nothing-in-flight', `${name} ${status}`);
      }
      if (status !== 'SENT') continue;
      const copies = keys?.count(str(r.event_key)) ?? 0;
      if (copies > 1)
        findings.list('duplicatedEventKeys', `${str(r.event_key)} x${copies}`, DUPLICATES_LISTED);
      if (copies > 0) continue;
      const partition =
        ranges.length > 0 ? partitionOfKey(topic, str(r.aggregate_id), ranges.length) : -1;
      const range = ranges.find((x) => x.partition === partition);
      const first = context.firstRetained.get(`${topic}:${partition}`);
      const sentAt = dateOrNull(r.sent_at);
      const retentionPassed =
        range !== undefined &&
        range.low > 0n &&
        (first === undefined || (sentAt !== null && sentAt.getTime() <= first.getTime()));
      if (retentionPassed)
        findings.notCheckable('sent-event-is-in-topic', "below its partition's low watermark");
      else findings.violate('sent-event-is-in-topic', name);
    }
    await orphanRows(context, service, rows);
  }
}

/** Rows whose aggregate does not exist at all (rows of existing ones are the order pass's). */
async function orphanRows(
  { deployment, findings }: CheckContext,
  service: string,
  rows: Array<Record<string, unknown>>,
): Promise<void> {
  const isOrder = service === 'order-service';
  const ids = [...new Set(rows.map((r) => str(r.aggregate_id)))];
  if (ids.length === 0) return;
  const found = isOrder
    ? await deployment.order.query('SELECT id FROM t_order WHERE id IN (?)', [ids])
    : await deployment.fulfillment.query('SELECT id FROM t_fulfillment WHERE id IN (?)', [ids]);
  const existing = new Set(found.map((r) => str(r.id)));
  for (const r of rows)
    if (!existing.has(str(r.aggregate_id)))
      findings.violate(
        'outbox-row-matches-history',
        `${service} outbox ${str(r.id)} ${str(r.event_key)}: no ${str(r.aggregate_type)} ${str(r.aggregate_id)}`,
      );
}
