import { cpuByCategory, CpuProfile } from './cpu-categories';

const frame = (functionName: string, url = '') => ({ functionName, url });

describe('cpuByCategory', () => {
  it('charges a sample to the layer of the innermost package or service frame of its stack', () => {
    // root → Nest handler → typeorm query → node:net write; root → idle; root → GC;
    // root → app → tracing context.with → app handler; root → timers (no package); root → require
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5, 6, 7, 10, 11] },
        {
          id: 2,
          callFrame: frame('handle', '/x/node_modules/@nestjs/core/router.js'),
          children: [3],
        },
        { id: 3, callFrame: frame('query', '/x/node_modules/typeorm/driver.js'), children: [4] },
        { id: 4, callFrame: frame('writeGeneric', 'node:net') },
        { id: 5, callFrame: frame('(idle)') },
        { id: 6, callFrame: frame('(garbage collector)') },
        {
          id: 7,
          callFrame: frame('settle', '/x/dist/apps/order-service/main.js'),
          children: [8],
        },
        {
          id: 8,
          callFrame: frame('with', '/x/node_modules/@opentelemetry/api/context.js'),
          children: [9],
        },
        { id: 9, callFrame: frame('handler', '/x/dist/apps/order-service/main.js') },
        { id: 10, callFrame: frame('processTimers', 'node:internal/timers') },
        {
          id: 11,
          callFrame: frame('require', 'node:internal/modules/cjs/loader'),
          children: [12],
        },
        { id: 12, callFrame: frame('x', '/x/node_modules/typeorm/index.js') },
      ],
      samples: [4, 2, 5, 6, 9, 8, 4, 10, 12],
      timeDeltas: [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000],
    };
    expect(cpuByCategory(profile)).toEqual({
      'DB client (typeorm, mysql2)': 8, // the net writes under typeorm
      'HTTP server (Nest, Express, body parsers)': 2,
      idle: 3,
      GC: 4,
      'app (services and libs)': 5, // the handler, though it runs inside a tracing context
      'tracing (@opentelemetry)': 6,
      'node internal/timers': 8,
      'startup (module loading)': 9,
    });
  });
});
