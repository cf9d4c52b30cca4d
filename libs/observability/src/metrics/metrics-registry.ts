import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The Prometheus registry of one Nest app: Node's default metrics plus whatever the
 * observability collectors register, labelled with the service name. One per app (not
 * prom-client's global registry), so several apps in one test process do not collide.
 */
export class MetricsRegistry extends Registry {
  constructor(readonly service: string) {
    super();
    this.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this });
  }
}
