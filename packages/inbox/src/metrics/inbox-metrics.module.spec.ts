import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { register as globalRegistry, Registry } from 'prom-client';
import type { InboxReadPorts } from '../inbox-stats.port';
import { InboxMetricsModule } from './inbox-metrics.module';
import { InboxMetrics } from './inbox-metrics';

/** The read-only ports under their tokens, as the global InboxModule provides them. */
function portsModule(counters: InboxMetrics) {
  @Global()
  @Module({
    providers: [
      { provide: 'InboxCounters', useValue: counters },
      {
        provide: 'InboxStatsSource',
        useValue: {
          stats: () => Promise.reject(new Error('not read by the metrics')),
          openGaps: async () => [],
          groupMembership: () => ({ consumer: 'c', joined: true }),
        },
      },
    ] satisfies Array<{ provide: keyof InboxReadPorts; useValue: unknown }>,
    exports: ['InboxCounters', 'InboxStatsSource'],
  })
  class PortsModule {}
  return PortsModule;
}

async function startApp(
  counters: InboxMetrics,
  options: Parameters<typeof InboxMetricsModule.forRoot>[0],
) {
  const moduleRef = await Test.createTestingModule({
    imports: [portsModule(counters), InboxMetricsModule.forRoot(options)],
  }).compile();
  return moduleRef.createNestApplication({ logger: false }).init();
}

describe('InboxMetricsModule', () => {
  it("registers on the app's registry at start and removes its metrics at close", async () => {
    const registry = new Registry();
    const counters = new InboxMetrics();
    counters.count('applied', 0);
    counters.deadLettered = 2;
    const app = await startApp(counters, { registry });
    const metric = (name: string) => registry.getSingleMetric(name)?.get();
    expect((await metric('inbox_dead_lettered_total'))?.values[0].value).toBe(2);
    expect((await metric('inbox_messages_total'))?.values).toContainEqual(
      expect.objectContaining({ labels: { outcome: 'applied' }, value: 1 }),
    );
    expect((await metric('inbox_open_gaps'))?.values[0].value).toBe(0);
    await app.close();
    expect(registry.getMetricsAsArray()).toEqual([]);
  });

  it("uses prom-client's global registry by default, so one app after another can start", async () => {
    const startAndClose = async () => {
      const app = await startApp(new InboxMetrics(), { prefix: 'again_' });
      expect(globalRegistry.getSingleMetric('again_inbox_messages_total')).toBeDefined();
      await app.close();
      expect(globalRegistry.getSingleMetric('again_inbox_messages_total')).toBeUndefined();
    };
    await startAndClose();
    await startAndClose(); // registering the same names again would throw had close kept them
  });
});
