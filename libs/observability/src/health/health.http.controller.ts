import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { InboxHealthIndicator } from '@outbox-inbox/inbox/health';
import { OutboxHealthIndicator } from '@outbox-inbox/outbox/health';
import { DataSource } from 'typeorm';
import { BROKER_PROBE, OWN_SCHEMA, READINESS_THRESHOLDS } from '../observability.tokens';
import { BrokerProbe } from './broker-probe';
import { HealthDetails, readHealthDetails } from './health-details';
import { describeOwnSchemaFaults, OwnSchema } from './own-schema';
import { ReadinessThresholds } from './readiness-thresholds';
import { PublicRoute } from '../auth/public-route.decorator';

/**
 * Liveness (`/health/live`: the process answers), readiness (`/health/ready`: this instance
 * can do its own work now: its database answers, its own tables, columns and grants are in
 * place, its outbox relay loop goes round without a fault of its own schema, and its inbox
 * consumer has joined its group once since start; 503 otherwise), details (`/health/details`:
 * broker, outbox backlog and DEAD rows, inbox gaps,
 * dead letters and blocked time, always 200) and the original `/health` (a database round
 * trip), which start-up scripts wait for. The outbox and inbox checks are the packages' own
 * terminus indicators (`@outbox-inbox/outbox/health`, `@outbox-inbox/inbox/health`).
 */
@ApiTags('health')
@PublicRoute()
@Controller('health')
export class HealthHttpController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    @Inject(READINESS_THRESHOLDS) private readonly thresholds: ReadinessThresholds,
    @Inject(OWN_SCHEMA) private readonly schema: OwnSchema,
    @Optional() @Inject(BROKER_PROBE) private readonly broker?: BrokerProbe | null,
    // The packages' indicators, null in a service without OutboxModule or InboxModule.
    @Optional()
    @Inject(OutboxHealthIndicator)
    private readonly outbox?: OutboxHealthIndicator | null,
    @Optional() @Inject(InboxHealthIndicator) private readonly inbox?: InboxHealthIndicator | null,
  ) {}

  @Get()
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException({ status: 'error', database: 'down' });
    }
    return { status: 'ok', database: 'up' };
  }

  @Get('live')
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check(this.readinessChecks());
  }

  /**
   * Shared conditions (broker down, DEAD or old unsent rows, dead letters, open gaps, a
   * blocked consumer) show here and in metrics, never in readiness: every instance sees them
   * alike, and taking every instance out of service would stop the pay callbacks too.
   */
  @Get('details')
  details(): Promise<HealthDetails> {
    return readHealthDetails({
      dataSource: this.dataSource,
      thresholds: this.thresholds,
      schema: this.schema,
      broker: this.broker,
      outbox: this.outbox,
      inbox: this.inbox,
    });
  }

  private readinessChecks(): HealthIndicatorFunction[] {
    const { checkTimeoutMs, relayStallMs } = this.thresholds;
    const checks: HealthIndicatorFunction[] = [
      () =>
        this.indicators
          .check('database')
          .attempt(async () => void (await this.dataSource.query('SELECT 1')))
          .withTimeout(checkTimeoutMs),
    ];
    if (this.schema.probed) {
      // A half-done deployment (migrations or grants not run) is this instance's own: it
      // cannot write an outbox row or take in an event, so it must not be sent traffic.
      checks.push(() =>
        this.indicators
          .check('schema')
          .attempt(async () => {
            const faults = await this.schema.faults();
            if (faults.length > 0) throw new Error(describeOwnSchemaFaults(faults));
          })
          .withTimeout(checkTimeoutMs),
      );
    }
    const { inbox, outbox } = this;
    // Until this instance's consumer first joins its group it takes no share of the work
    // (HTTP answers meanwhile: the join can take a session timeout). Later rebalances and
    // broker outages do not count here: /health/details shows them.
    if (inbox) checks.push(() => inbox.checkConsumer('inboxConsumer'));
    // Its relay loop goes round, and its own table is there (a missing topic does not count).
    if (outbox) checks.push(() => outbox.checkRelay('outboxRelay', { stallMs: relayStallMs }));
    return checks;
  }
}
