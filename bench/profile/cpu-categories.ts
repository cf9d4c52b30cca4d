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

/** A category of CPU time: a sample belongs to the first category any frame of its stack matches. */
export interface Category {
  name: string;
  matches: (frame: { functionName: string; url: string }) => boolean;
}

/** Where a Nest service's CPU goes, most specific first (a DB call under a Nest handler is DB). */
export const SERVICE_CATEGORIES: Category[] = [
  { name: 'startup (module loading)', matches: (f) => /internal\/modules/.test(f.url) },
  { name: 'relay (kafkajs)', matches: (f) => /node_modules\/kafkajs\//.test(f.url) },
  {
    name: 'validation (class-validator, class-transformer)',
    matches: (f) => /node_modules\/(class-validator|class-transformer|validator)\//.test(f.url),
  },
  {
    name: 'DB client (typeorm, mysql2, their socket writes)',
    matches: (f) => /node_modules\/(typeorm|mysql2)\//.test(f.url),
  },
  { name: 'signature (crypto)', matches: (f) => /internal\/crypto/.test(f.url) },
  {
    name: 'HTTP (Nest, Express, node:http)',
    matches: (f) =>
      /node_modules\/(@nestjs|express|router|body-parser|raw-body|finalhandler|send)\/|_http_|node:net/.test(
        f.url,
      ),
  },
];

/** CPU time per category in ms, plus `idle`, `GC` and `other`, summing to the profile's time. */
export function cpuByCategory(
  profile: CpuProfile,
  categories: Category[] = SERVICE_CATEGORIES,
): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const totals: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const leaf = byId.get(id)!.callFrame.functionName;
    let name = leaf === '(idle)' ? 'idle' : leaf === '(garbage collector)' ? 'GC' : undefined;
    if (!name) {
      const frames: CpuProfile['nodes'][number]['callFrame'][] = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        frames.push(byId.get(cur)!.callFrame);
      }
      name = categories.find((c) => frames.some(c.matches))?.name ?? 'other';
    }
    totals[name] = (totals[name] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
  });
  return totals;
}
