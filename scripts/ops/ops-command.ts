import { parseArgs } from 'node:util';

/** A parsed `npm run ops` command line: what to call on which service. */
export interface OpsRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Changes state: asks for confirmation unless --yes. */
  destructive: boolean;
}

/** A command line the CLI cannot run; the message says what is wrong. */
export class UsageError extends Error {
  readonly code = 'USAGE' as const;
}

export const USAGE = `usage: npm run ops -- <command> --service URL [options]

commands:
  outbox:stats                      backlog by status, oldest unsent age, DEAD count
  outbox:dead [--limit N]           DEAD outbox rows with their last error
  outbox:requeue (--id ID... | --event-type T | --aggregate-id A | --all) [--yes]
                                    DEAD rows back to NEW
  inbox:stats                       applied, duplicates, parked, open gaps, dead-lettered
  dlq:list                          messages in the consumer's dead-letter topic
  dlq:replay (--message PARTITION:OFFSET... | --event-type T | --error-code C | --all)
             [--include-replayed] [--yes]
                                    put dead letters back on their source topic

--service is the base URL of the service, e.g. http://127.0.0.1:3001`;

/** Turns argv into the HTTP call it stands for, or throws UsageError. */
export function parseOpsCommand(argv: string[]): OpsRequest & { service: string; yes: boolean } {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') throw new UsageError(USAGE);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      options: {
        service: { type: 'string' },
        limit: { type: 'string' },
        id: { type: 'string', multiple: true },
        message: { type: 'string', multiple: true },
        'event-type': { type: 'string' },
        'error-code': { type: 'string' },
        'aggregate-id': { type: 'string' },
        all: { type: 'boolean' },
        'include-replayed': { type: 'boolean' },
        yes: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (parsed.help) throw new UsageError(USAGE);
  const service = parsed.service;
  if (!service || !/^https?:\/\/[^/]+/.test(service)) {
    throw new UsageError(`--service URL is required (e.g. http://127.0.0.1:3001)\n\n${USAGE}`);
  }
  const common = { service: service.replace(/\/+$/, ''), yes: parsed.yes ?? false };

  switch (command) {
    case 'outbox:stats':
      return { ...common, method: 'GET', path: '/outbox/stats', destructive: false };
    case 'outbox:dead': {
      const limit = parsed.limit ?? '100';
      if (!/^\d{1,4}$/.test(limit)) throw new UsageError('--limit must be a number up to 9999');
      return { ...common, method: 'GET', path: `/outbox/dead?limit=${limit}`, destructive: false };
    }
    case 'outbox:requeue': {
      const body = {
        ...(parsed.id && { ids: parsed.id }),
        ...(parsed['event-type'] && { eventType: parsed['event-type'] }),
        ...(parsed['aggregate-id'] && { aggregateId: parsed['aggregate-id'] }),
        ...(parsed.all && { all: true }),
      };
      if (Object.keys(body).length === 0) {
        throw new UsageError('outbox:requeue needs --id, --event-type, --aggregate-id or --all');
      }
      return { ...common, method: 'POST', path: '/outbox/dead/requeue', body, destructive: true };
    }
    case 'inbox:stats':
      return { ...common, method: 'GET', path: '/inbox/stats', destructive: false };
    case 'dlq:list':
      return { ...common, method: 'GET', path: '/inbox/dead-letters', destructive: false };
    case 'dlq:replay': {
      const messages = (parsed.message ?? []).map((ref) => {
        const match = /^(\d+):(\d+)$/.exec(ref);
        if (!match) throw new UsageError(`--message must be PARTITION:OFFSET, got "${ref}"`);
        return { partition: Number(match[1]), offset: match[2] };
      });
      const body = {
        ...(messages.length > 0 && { messages }),
        ...(parsed['event-type'] && { eventType: parsed['event-type'] }),
        ...(parsed['error-code'] && { errorCode: parsed['error-code'] }),
        ...(parsed.all && { all: true }),
      };
      if (Object.keys(body).length === 0) {
        throw new UsageError('dlq:replay needs --message, --event-type, --error-code or --all');
      }
      if (parsed['include-replayed']) Object.assign(body, { includeReplayed: true });
      return {
        ...common,
        method: 'POST',
        path: '/inbox/dead-letters/replay',
        body,
        destructive: true,
      };
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}
