import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { register as globalRegistry } from 'prom-client';
import type { InboxCounters, InboxReadPorts, InboxStatsSource } from '../inbox-stats.port';
import { InboxMetricsOptions, registerInboxMetrics } from './register-inbox-metrics';

const OPTIONS = Symbol('InboxMetricsOptions');

/** Registers the inbox metrics when the app starts and removes them when it closes. */
@Injectable()
class InboxMetricsRegistration implements OnModuleDestroy {
  private readonly names: string[];

  constructor(
    @Inject(OPTIONS) private readonly options: InboxMetricsOptions,
    @Inject('InboxCounters' satisfies keyof InboxReadPorts) counters: InboxCounters,
    @Optional()
    @Inject('InboxStatsSource' satisfies keyof InboxReadPorts)
    stats?: InboxStatsSource | null,
  ) {
    this.names = registerInboxMetrics({ counters, stats }, options);
  }

  onModuleDestroy(): void {
    const registry = this.options.registry ?? globalRegistry;
    for (const name of this.names) registry.removeSingleMetric(name);
  }
}

/**
 * The inbox metrics of an app that has InboxModule, on a prom-client registry (the global
 * one unless `registry` is given), for whatever serves `/metrics` (such as
 * @willsoto/nestjs-prometheus, or `registry.metrics()` in a controller of your own).
 */
@Module({})
export class InboxMetricsModule {
  static forRoot(options: InboxMetricsOptions = {}): DynamicModule {
    return {
      module: InboxMetricsModule,
      providers: [{ provide: OPTIONS, useValue: options }, InboxMetricsRegistration],
    };
  }
}
