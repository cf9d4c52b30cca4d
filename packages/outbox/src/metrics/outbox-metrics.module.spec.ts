import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { register as globalRegistry, Registry } from 'prom-client';
import type { OutboxReadPorts, OutboxStats } from '../outbox-stats.port';
import { OutboxMetricsModule } from './outbox-metrics.module';

const STATS: OutboxStats = {
  backlog: { NEW: 0, SENDING: 0, DEAD: 4 },
  oldestUnsentAgeMs: 0,
  retryingRows: 0,
  dead: 4,
  aggregatesBlockedByDead: 0,
  deadPolicy: 'block',
};

/** The read-only ports under their tokens, as the global OutboxModule provides them. */
@Global()
@Module({
  providers: [
    { provide: 'OutboxStatsSource', useValue: { stats: async () => STATS } },
    { provide: 'OutboxRelayStats', useValue: null },
  ] satisfies Array<{ provide: keyof OutboxReadPorts; useValue: unknown }>,
  exports: ['OutboxStatsSource', 'OutboxRelayStats'],
})
class PortsModule {}

async function startApp(options: Parameters<typeof OutboxMetricsModule.forRoot>[0]) {
  const moduleRef = await Test.createTestingModule({
    imports: [PortsModule, OutboxMetricsModule.forRoot(options)],
  }).compile();
  return moduleRef.createNestApplication({ logger: false }).init();
}

describe('OutboxMetricsModule', () => {
  it("registers on the app's registry at start and removes its metrics at close", async () => {
    const registry = new Registry();
    const app = await startApp({ registry });
    expect((await registry.getSingleMetric('outbox_dead_rows')?.get())?.values[0].value).toBe(4);
    await app.close();
    expect(registry.getMetricsAsArray()).toEqual([]);
  });

  it("uses prom-client's global registry by default, so one app after another can start", async () => {
    const startAndClose = async () => {
      const app = await startApp({ prefix: 'again_' });
      expect(globalRegistry.getSingleMetric('again_outbox_dead_rows')).toBeDefined();
      await app.close();
      expect(globalRegistry.getSingleMetric('again_outbox_dead_rows')).toBeUndefined();
    };
    await startAndClose();
    await startAndClose(); // registering the same names again would throw had close kept them
  });
});
