/** The peer's logger (pino's methods) and how many warnings and errors it was given. */
export interface PgPeerLogger {
  logger: object;
  warnings(): number;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Warnings and errors only, each kind once on stderr (a kind is the text with message ids left
 * out) and every one counted: under load the peer warns about nearly every message, and ten
 * thousand lines would bury the bench's own.
 */
export function pgPeerLogger(name: string): PgPeerLogger {
  const kinds = new Set<string>();
  let count = 0;
  const line =
    (level: string) =>
    (...args: unknown[]) => {
      count += 1;
      const text = args
        .map((a) =>
          a instanceof Error ? a.message : typeof a === 'string' ? a : JSON.stringify(a),
        )
        .join(' ')
        .replace(UUID, '<id>')
        .slice(0, 300);
      if (kinds.has(text)) return;
      kinds.add(text);
      process.stderr.write(`${name} ${level} (first of its kind): ${text}\n`);
    };
  const drop = () => undefined;
  return {
    logger: {
      fatal: line('fatal'),
      error: line('error'),
      warn: line('warn'),
      info: drop,
      debug: drop,
      trace: drop,
      silent: drop,
      level: 'warn',
    },
    warnings: () => count,
  };
}
