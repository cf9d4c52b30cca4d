import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { OutboxOperations, OutboxRelay } from '@app/outbox';
import { DataSource } from 'typeorm';
import { BROKER_PROBE, READINESS_THRESHOLDS } from '../observability.tokens';
import { BrokerProbe } from './broker-probe';
import { ReadinessThresholds } from './readiness-thresholds';
import { PublicRoute } from '../auth/public-route.decorator';
import { relayStall } from './relay-stall';

/**
 * Liveness (`/health/live`: the process answers), readiness (`/health/ready`: 503 while the
 * database or broker is unreachable, the outbox relay loop is stuck, or the oldest unsent
 * outbox row is older than the threshold) and the original `/health` (a database round trip),
 * which start-up scripts wait for.
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
    @Optional() @Inject(BROKER_PROBE) private readonly broker?: BrokerProbe | null,
    // Explicit tokens: a union type's design type is Object, which DI cannot resolve.
    @Optional() @Inject(OutboxRelay) private readonly relay?: OutboxRelay | null,
    @Optional() @Inject(OutboxOperations) private readonly outbox?: OutboxOperations | null,
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

  private readinessChecks(): HealthIndicatorFunction[] {
    const { checkTimeoutMs, relayStallMs, outboxMaxAgeMs } = this.thresholds;
    const checks: HealthIndicatorFunction[] = [
      () =>
        this.indicators
          .check('database')
          .attempt(async () => void (await this.dataSource.query('SELECT 1')))
          .withTimeout(checkTimeoutMs),
    ];
    const broker = this.broker;
    if (broker) {
      checks.push(() =>
        this.indicators
          .check('broker')
          .attempt(async () => ({ brokers: await broker.brokers() }))
          .withTimeout(checkTimeoutMs),
      );
    }
    const relay = this.relay;
    if (relay) {
      checks.push(() =>
        this.indicators.check('outboxRelay').attempt(() => {
          const stalled = relayStall(relay.heartbeat(), relayStallMs, Date.now());
          if (stalled) throw new Error(stalled);
        }),
      );
    }
    const outbox = this.outbox;
    if (outbox) {
      checks.push(() =>
        this.indicators
          .check('outboxAge')
          .attempt(async () => {
            const { oldestUnsentAgeMs } = await outbox.stats();
            if (oldestUnsentAgeMs > outboxMaxAgeMs) {
              throw new Error(
                `the oldest unsent outbox row is ${oldestUnsentAgeMs} ms old (limit ${outboxMaxAgeMs} ms)`,
              );
            }
            return { oldestUnsentAgeMs };
          })
          .withTimeout(checkTimeoutMs),
      );
    }
    return checks;
  }
}
