import { cpuByCategory, CpuProfile } from './cpu-categories';

const frame = (functionName: string, url = '') => ({ functionName, url });

describe('cpuByCategory', () => {
  it('charges a sample to the most specific category anywhere on its stack', () => {
    // root → Nest handler → typeorm query → node:net write; root → idle; root → GC; root → app
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5, 6, 7] },
        {
          id: 2,
          callFrame: frame('handle', '/x/node_modules/@nestjs/core/router.js'),
          children: [3],
        },
        { id: 3, callFrame: frame('query', '/x/node_modules/typeorm/driver.js'), children: [4] },
        { id: 4, callFrame: frame('writeGeneric', 'node:net') },
        { id: 5, callFrame: frame('(idle)') },
        { id: 6, callFrame: frame('(garbage collector)') },
        { id: 7, callFrame: frame('settle', '/x/dist/apps/order-service/main.js') },
      ],
      samples: [4, 2, 5, 6, 7, 4],
      timeDeltas: [1000, 2000, 3000, 4000, 5000, 6000],
    };
    expect(cpuByCategory(profile)).toEqual({
      'DB client (typeorm, mysql2, their socket writes)': 7, // the net write under typeorm
      'HTTP (Nest, Express, node:http)': 2,
      idle: 3,
      GC: 4,
      other: 5,
    });
  });
});
