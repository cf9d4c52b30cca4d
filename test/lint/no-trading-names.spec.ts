import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { consumerChannels, TRADING_EVENTS, topicForAggregate } from '@app/trading-events';

const ROOT = join(__dirname, '..', '..');
/** The generic libraries: they must not know the trading chain, tests and docs included. */
const GENERIC_LIBS = ['packages/messaging', 'packages/outbox', 'packages/inbox'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const unique = (values: string[]) => [...new Set(values)];

/**
 * The trading names, taken from the catalogue itself so a new trading event is covered the day
 * it is added: its event types (also as class-name prefixes, OrderPaidV1), its aggregate types
 * as values ('Order', Order:42), its topics and consumer channels, and the word "trading".
 */
function tradingPatterns(): Array<{ name: string; pattern: RegExp }> {
  const eventTypes = unique(TRADING_EVENTS.map((e) => e.eventType));
  const aggregateTypes = unique(TRADING_EVENTS.map((e) => e.aggregateType));
  const topics = aggregateTypes.flatMap((a) => [topicForAggregate(a), topicForAggregate(a, '')]);
  const channelPrefix = consumerChannels('x').groupId.slice(0, -1);
  return [
    ...eventTypes.map((t) => ({ name: t, pattern: new RegExp(`\\b${escape(t)}`) })),
    ...aggregateTypes.map((a) => ({
      name: `aggregate type ${a}`,
      pattern: new RegExp(`['"\`]${escape(a)}['"\`]|\\b${escape(a)}:\\w|/${escape(a)}/`),
    })),
    ...unique([...topics, channelPrefix]).map((t) => ({
      name: `topic ${t}`,
      pattern: new RegExp(escape(t), 'i'),
    })),
    { name: 'trading', pattern: /\btrading\b/i },
  ];
}

/** Each line of `text` that names a trading event or topic, as `path:line: name`. */
function tradingNamesIn(path: string, text: string): string[] {
  const patterns = tradingPatterns();
  return text
    .split('\n')
    .flatMap((line, i) =>
      patterns
        .filter(({ pattern }) => pattern.test(line))
        .map(({ name }) => `${path}:${i + 1}: ${name}`),
    );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(join(dir, entry.name));
    }
    return entry.isFile() ? [join(dir, entry.name)] : [];
  });
}

describe('the generic libraries name no trading event or topic', () => {
  const files = GENERIC_LIBS.flatMap((lib) => filesUnder(join(ROOT, lib)));

  it('finds every trading name it looks for, so it can fail', () => {
    const planted = [
      "import { OrderPaidV1 } from '@app/trading-events';",
      "const topic = 'trading.order.events';",
      'writer.add(m, FulfillmentRevertedV1, payload);',
      "await fetch('/inbox/deliveries?aggregate=Order:42');",
      "row('Fulfillment', 'f', 1);",
      'const neutral = parcelEvent("registered", "p-1", 1); // in order',
    ].join('\n');
    expect(tradingNamesIn('planted.ts', planted)).toEqual([
      'planted.ts:1: OrderPaid',
      'planted.ts:1: trading',
      'planted.ts:2: topic trading.order.events',
      'planted.ts:2: topic order.events',
      'planted.ts:2: topic trading.',
      'planted.ts:2: trading',
      'planted.ts:3: FulfillmentReverted',
      'planted.ts:4: aggregate type Order',
      'planted.ts:5: aggregate type Fulfillment',
    ]);
  });

  it('reads the sources, tests and docs of packages/messaging, packages/outbox and packages/inbox', () => {
    const read = (lib: string) => files.filter((f) => f.startsWith(join(ROOT, lib, '/'))).length;
    expect(GENERIC_LIBS.map(read).every((n) => n > 5)).toBe(true);
    expect(files.some((f) => f.endsWith('.int-spec.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('README.md'))).toBe(true);
  });

  it('finds none in any of their files', () => {
    const found = files.flatMap((file) =>
      tradingNamesIn(relative(ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
