import { Gauge } from 'prom-client';
import { OwnSchema } from '../health/own-schema';
import { MetricsRegistry } from './metrics-registry';

/**
 * `schema_faults`: this instance's missing tables, columns and grants at scrape time, one
 * series per thing missing (its component, kind and subject), none when all is in place. A
 * scrape while the database does not answer keeps the last values.
 */
export class SchemaMetrics {
  constructor(registry: MetricsRegistry, schema: OwnSchema) {
    new Gauge({
      name: 'schema_faults',
      help: "Tables, columns and grants this service's outbox or inbox needs and does not have (a half-done deployment); readiness fails while any is",
      labelNames: ['component', 'kind', 'subject'],
      registers: [registry],
      async collect() {
        const faults = await schema.faults().catch(() => undefined);
        if (!faults) return;
        this.reset();
        for (const { component, kind, subject } of faults)
          this.set({ component, kind, subject }, 1);
      },
    });
  }
}
