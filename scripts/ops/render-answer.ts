import { Cell, textTable } from './text-table';

type Json = Record<string, unknown>;

/**
 * An answer of a service's ops API as a person reads it: tables with labelled columns, counts
 * that say what they count, and a `DEGRADED` line first when the service answered from memory.
 * `--json` prints the answer as it came instead.
 */
export function renderAnswer(method: string, path: string, body: unknown): string {
  const route = `${method} ${path.split('?')[0]}`;
  const parts: string[] = [];
  const degraded = degradedLine(body);
  if (degraded) parts.push(degraded);
  const render = RENDERERS[route];
  parts.push(render ? render(body as Json) : generic(body));
  return parts.join('\n\n');
}

const RENDERERS: Record<string, (body: Json) => string> = {
  'GET /inbox/stats': inboxStats,
  'GET /outbox/stats': outboxStats,
  'GET /outbox/dead': (body) => deadRows(listOf(body)),
  'GET /inbox/dead-letters': (body) => deadLetters(listOf(body, 'deadLetters')),
};

/** `DEGRADED: ...` when the service could not reach its database or broker. */
function degradedLine(body: unknown): string | undefined {
  const cause = (body as { degraded?: { cause?: { code?: string; message?: string } } } | null)
    ?.degraded?.cause;
  if (!cause) return undefined;
  return (
    `DEGRADED: the service answered from memory, a dependency is unreachable ` +
    `(${cause.code}: ${cause.message}); figures read from its database are unknown (-)`
  );
}

function inboxStats(body: Json): string {
  const table = (body.inbox ?? {}) as Json;
  const since = (body.sinceStart ?? {}) as Json;
  const row = (label: string, inTable: string | undefined, key: string): Cell[] => [
    label,
    inTable === undefined ? undefined : (table[inTable] as Cell),
    since[key] as Cell,
  ];
  const outcomes = textTable(
    ['outcome', 'in the inbox table', 'since this process started'],
    [
      row('applied', 'applied', 'applied'),
      row('ignored (no handler here for its type)', 'ignored', 'ignored'),
      row('stale (older than applied)', 'stale', 'stale'),
      row('parked (waiting for a predecessor)', 'parked', 'parked'),
      row('duplicates (redeliveries absorbed)', undefined, 'duplicates'),
      row('drained (parked, then applied)', undefined, 'drained'),
      row('retries', undefined, 'retries'),
      row('dead-lettered', undefined, 'deadLettered'),
      row('pauses (blocked rounds)', undefined, 'pauses'),
      row('unknown event types (skipped)', undefined, 'unknownEventTypes'),
      row('held for a newer schema', undefined, 'heldNewerSchema'),
    ],
  );
  const blocked = (body.blocked ?? { partitions: [] }) as {
    seconds?: number;
    partitions?: Array<Json>;
  };
  const gaps = (body.openGaps as Json[] | undefined) ?? undefined;
  const lines = [
    `inbox of consumer ${String(body.consumer)}`,
    '',
    outcomes,
    '  in the inbox table: rows every instance of this consumer recorded, kept until pruned',
    '  since this process started: counters of the instance that answered (`sinceStart`)',
    '',
    `parked now: ${show(body.parkedNow)}    dead-letter topic: ${show(body.deadLetterTopicMessages)} message(s)`,
    '',
    `blocked partitions (paused while a dependency is down): ${blocked.partitions?.length ?? 0}` +
      (blocked.partitions?.length ? `, the oldest for ${Math.round(blocked.seconds ?? 0)} s` : ''),
  ];
  if (blocked.partitions?.length) {
    lines.push(
      textTable(
        ['topic', 'partition', 'since', 'rounds', 'last error'],
        blocked.partitions.map((p) => [
          p.topic as Cell,
          p.partition as Cell,
          p.since as Cell,
          p.rounds as Cell,
          p.lastError as Cell,
        ]),
      ),
    );
  }
  lines.push(
    '',
    `open gaps (a version missing for longer than the gap alert time): ${gaps === undefined ? '-' : gaps.length}`,
  );
  if (gaps?.length) {
    lines.push(
      textTable(
        ['aggregate', 'last applied', 'parked versions', 'parked since'],
        gaps.map((g) => [
          `${String(g.aggregateType)}:${String(g.aggregateId)}`,
          g.lastAppliedVersion as Cell,
          (g.parkedVersions as number[]).join(','),
          g.oldestParkedAt as Cell,
        ]),
      ),
    );
  }
  return lines.join('\n');
}

function outboxStats(body: Json): string {
  const backlog = (body.backlog ?? {}) as Json;
  const relay = body.relay as Json | undefined;
  const lines = [
    textTable(
      ['outbox (from the table)', 'value'],
      [
        ['NEW rows (waiting to be published)', backlog.NEW as Cell],
        ['SENDING rows (claimed by a relay)', backlog.SENDING as Cell],
        ['DEAD rows (need an operator: outbox:dead)', backlog.DEAD as Cell],
        ['oldest unsent row, ms', body.oldestUnsentAgeMs as Cell],
        ['rows waiting to retry', body.retryingRows as Cell],
        ['aggregates held back behind a DEAD row', body.aggregatesBlockedByDead as Cell],
        ['policy for a DEAD row', body.deadPolicy as Cell],
      ],
    ),
  ];
  if (relay) {
    lines.push(
      '',
      textTable(
        ['relay of this process, since it started', 'count'],
        Object.entries(relay).map(([key, value]) => [key, value as Cell]),
      ),
    );
  }
  return lines.join('\n');
}

function deadRows(rows: Json[]): string {
  return textTable(
    ['id', 'event', 'aggregate', 'version', 'attempts', 'last error', 'updated'],
    rows.map((r) => [
      r.id as Cell,
      r.eventType as Cell,
      `${String(r.aggregateType)}:${String(r.aggregateId)}`,
      r.aggregateVersion as Cell,
      r.retryCount as Cell,
      r.lastError as Cell,
      r.updatedAt as Cell,
    ]),
  );
}

function deadLetters(rows: Json[]): string {
  return textTable(
    ['message', 'event', 'error', 'attempts', 'source', 'failed at', 'replayed at'],
    rows.map((m) => [
      `${String(m.partition)}:${String(m.offset)}`,
      m.eventType as Cell,
      [m.errorCode, m.error].filter(Boolean).join(': '),
      m.attempts as Cell,
      `${String(m.sourceTopic)}[${String(m.sourcePartition)}]@${String(m.sourceOffset)}`,
      m.failedAt as Cell,
      m.replayedAt as Cell,
    ]),
  );
}

/** Anything else: a list as a table of its fields, an object as field/value lines. */
function generic(body: unknown): string {
  if (Array.isArray(body)) {
    const rows = body as Json[];
    const headers = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return textTable(
      headers,
      rows.map((r) => headers.map((h) => cell(r[h]))),
    );
  }
  if (body !== null && typeof body === 'object') {
    const entries = Object.entries(body as Json).filter(([key]) => key !== 'degraded');
    return textTable(
      ['field', 'value'],
      entries.map(([key, value]) => [key, cell(value)]),
      100,
    );
  }
  return String(body);
}

function listOf(body: unknown, key?: string): Json[] {
  if (Array.isArray(body)) return body as Json[];
  const inner = key ? (body as Json | null)?.[key] : undefined;
  return Array.isArray(inner) ? (inner as Json[]) : [];
}

function cell(value: unknown): Cell {
  if (value === null || value === undefined) return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return value as Cell;
}

function show(value: unknown): string {
  return value === null || value === undefined ? '-' : String(value);
}
