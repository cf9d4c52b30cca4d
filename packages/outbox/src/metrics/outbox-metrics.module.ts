import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { register as globalRegistry } from 'prom-client';
import type { OutboxReadPorts, OutboxRelayStats, OutboxStatsSource } from '../outbox-stats.port';
import { OutboxMetricsOptions, registerOutboxMetrics } from './register-outbox-metrics';

const OPTIONS = Symbol('OutboxMetricsOptions');

/** Registers the outbox metrics when the app starts and removes them when it closes. */
@Injectable()
class OutboxMetricsRegistration implements OnModuleDestroy {
  private readonly names: string[];

  constructor(
    @Inject(OPTIONS) private readonly options: OutboxMetricsOptions,
    @Inject('OutboxStatsSource' satisfies keyof OutboxReadPorts) stats: OutboxStatsSource,
    @Optional()
    @Inject('OutboxRelayStats' satisfies keyof OutboxReadPorts)
    relay?: OutboxRelayStats | null,
  ) {
    this.names = registerOutboxMetrics({ stats, relay }, options);
  }

  onModuleDestroy(): void {
    const registry = this.options.registry ?? globalRegistry;
    for (const name of this.names) registry.removeSingleMetric(name);
  }
}

/**
 * The outbox metrics of an app that has OutboxModule, on a prom-client registry (the global
 * one unless `registry` is given), for whatever serves `/metrics` (such as
 * @willsoto/nestjs-prometheus, or `registry.metrics()` in a controller of your own).
 */
@Module({})
export class OutboxMetricsModule {
  static forRoot(options: OutboxMetricsOptions = {}): DynamicModule {
    return {
      module: OutboxMetricsModule,
      providers: [{ provide: OPTIONS, useValue: options }, OutboxMetricsRegistration],
    };
  }
}
