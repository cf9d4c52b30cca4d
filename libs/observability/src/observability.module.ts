import {
  DynamicModule,
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { CommonEnv, kafkaClientSecurity, ServiceEnv } from '@app/config';
import type { InboxCounters, InboxStatsSource } from '@outbox-inbox/inbox';
import { InboxHealthIndicator } from '@outbox-inbox/inbox/health';
import { registerInboxMetrics } from '@outbox-inbox/inbox/metrics';
import type { OutboxRelayStats, OutboxStatsSource } from '@outbox-inbox/outbox';
import { OutboxHealthIndicator } from '@outbox-inbox/outbox/health';
import { registerOutboxMetrics } from '@outbox-inbox/outbox/metrics';
import { InboxObserverInterceptor } from './consumer/inbox-observer.interceptor';
import { CorrelationModule } from './correlation/correlation.module';
import type { SchemaProbe } from '@outbox-inbox/database';
import { BrokerProbe } from './health/broker-probe';
import { OwnSchema } from './health/own-schema';
import { HealthHttpController } from './health/health.http.controller';
import { DEFAULT_READINESS, ReadinessThresholds } from './health/readiness-thresholds';
import { HttpObserverMiddleware } from './http/http-observer.middleware';
import { pinoOptions } from './logging/pino-options';
import { BrokerMetrics } from './metrics/broker-metrics';
import { HttpMetrics } from './metrics/http-metrics';
import { MetricsHttpController } from './metrics/metrics.http.controller';
import { MetricsRegistry } from './metrics/metrics-registry';
import { SchemaMetrics } from './metrics/schema-metrics';
import { ObservabilityAsyncOptions, ObservabilityOptions } from './observability.options';
import {
  BROKER_PROBE,
  INBOX_COUNTERS,
  INBOX_SCHEMA_PROBE,
  INBOX_STATS_SOURCE,
  OUTBOX_RELAY_STATS,
  OUTBOX_SCHEMA_PROBE,
  OUTBOX_STATS_SOURCE,
  OWN_SCHEMA,
  READINESS_THRESHOLDS,
} from './observability.tokens';
import { flushTracing } from './tracing/start-tracing';

/**
 * Metrics (`GET /metrics`), health (`/health`, `/health/live`, `/health/ready`), JSON logs
 * with correlation and trace ids, and trace propagation through HTTP and inbox handlers, for
 * one service. Outbox and inbox metrics and checks appear when OutboxModule or InboxModule is
 * in the app. Use the app logger with `app.useLogger(app.get(Logger))` (bootstrapService does).
 * The operator token the routes need is OperatorAuthModule's, in @app/service-bootstrap.
 */
@Module({})
export class ObservabilityModule implements NestModule, OnApplicationShutdown {
  constructor(@Optional() @Inject(BROKER_PROBE) private readonly broker?: BrokerProbe | null) {}

  /**
   * The usual wiring from a service's validated environment, read at DI time from `schema` (the
   * config class `serviceConfig` provides): LOG_LEVEL, the Kafka brokers to probe (services on
   * Kafka) and the HEALTH_* readiness thresholds.
   */
  static forService(
    service: string,
    schema: abstract new () => ServiceEnv & Partial<CommonEnv>,
  ): DynamicModule {
    return ObservabilityModule.forRootAsync({
      service,
      inject: [schema],
      useFactory: (env: ServiceEnv & Partial<CommonEnv>) => observabilityFromEnv(service, env),
    });
  }

  static forRoot(options: ObservabilityOptions): DynamicModule {
    // Fail at wiring time, not at bootstrap.
    resolveReadiness(options.readiness);
    return ObservabilityModule.forRootAsync({
      service: options.service,
      useFactory: () => options,
    });
  }

  /** The options from a factory run at DI time; `service` is needed when the module is built. */
  static forRootAsync(options: ObservabilityAsyncOptions): DynamicModule {
    const optionsModule: DynamicModule = {
      module: ObservabilityOptionsModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: OBSERVABILITY_OPTIONS,
          inject: options.inject ?? [],
          useFactory: async (...args: unknown[]) => {
            const resolved = await options.useFactory(...args);
            return { ...resolved, readiness: resolveReadiness(resolved.readiness) };
          },
        },
      ],
      exports: [OBSERVABILITY_OPTIONS],
    };
    return {
      module: ObservabilityModule,
      imports: [
        optionsModule,
        TerminusModule,
        LoggerModule.forRootAsync({
          imports: [optionsModule],
          inject: [OBSERVABILITY_OPTIONS],
          useFactory: (resolved: ResolvedOptions) =>
            pinoOptions(options.service, resolved.logLevel),
        }),
        CorrelationModule,
      ],
      controllers: [MetricsHttpController, HealthHttpController],
      providers: [
        // A factory, not a value: a module declared once may be started by several apps.
        { provide: MetricsRegistry, useFactory: () => new MetricsRegistry(options.service) },
        {
          provide: HttpMetrics,
          inject: [MetricsRegistry],
          useFactory: (r: MetricsRegistry) => new HttpMetrics(r),
        },
        // The packages' own metrics and health indicators, on this app's registry and ports.
        {
          provide: OUTBOX_METRICS,
          inject: [
            MetricsRegistry,
            { token: OUTBOX_STATS_SOURCE, optional: true },
            { token: OUTBOX_RELAY_STATS, optional: true },
          ],
          useFactory: (
            registry: MetricsRegistry,
            stats?: OutboxStatsSource,
            relay?: OutboxRelayStats | null,
          ) => (stats ? registerOutboxMetrics({ stats, relay }, { registry }) : null),
        },
        {
          provide: INBOX_METRICS,
          inject: [
            MetricsRegistry,
            { token: INBOX_COUNTERS, optional: true },
            { token: INBOX_STATS_SOURCE, optional: true },
          ],
          useFactory: (
            registry: MetricsRegistry,
            counters?: InboxCounters,
            stats?: InboxStatsSource,
          ) => (counters ? registerInboxMetrics({ counters, stats }, { registry }) : null),
        },
        {
          provide: OutboxHealthIndicator,
          inject: [
            HealthIndicatorService,
            { token: OUTBOX_STATS_SOURCE, optional: true },
            { token: OUTBOX_RELAY_STATS, optional: true },
          ],
          useFactory: (
            indicators: HealthIndicatorService,
            stats?: OutboxStatsSource,
            relay?: OutboxRelayStats | null,
          ) => (stats ? new OutboxHealthIndicator(indicators, stats, relay) : null),
        },
        {
          provide: InboxHealthIndicator,
          inject: [HealthIndicatorService, { token: INBOX_STATS_SOURCE, optional: true }],
          useFactory: (indicators: HealthIndicatorService, stats?: InboxStatsSource) =>
            stats ? new InboxHealthIndicator(indicators, stats) : null,
        },
        {
          provide: OWN_SCHEMA,
          inject: [
            { token: OUTBOX_SCHEMA_PROBE, optional: true },
            { token: INBOX_SCHEMA_PROBE, optional: true },
          ],
          useFactory: (outbox?: SchemaProbe, inbox?: SchemaProbe) =>
            new OwnSchema({ ...(outbox && { outbox }), ...(inbox && { inbox }) }),
        },
        {
          provide: SchemaMetrics,
          inject: [MetricsRegistry, OWN_SCHEMA],
          useFactory: (r: MetricsRegistry, schema: OwnSchema) =>
            schema.probed ? new SchemaMetrics(r, schema) : null,
        },
        {
          provide: BrokerMetrics,
          inject: [MetricsRegistry, BROKER_PROBE],
          useFactory: (r: MetricsRegistry, probe: BrokerProbe | null) =>
            probe ? new BrokerMetrics(r, probe) : null,
        },
        {
          provide: READINESS_THRESHOLDS,
          inject: [OBSERVABILITY_OPTIONS],
          useFactory: (resolved: ResolvedOptions) => resolved.readiness,
        },
        {
          provide: BROKER_PROBE,
          inject: [OBSERVABILITY_OPTIONS],
          useFactory: (resolved: ResolvedOptions) =>
            resolved.kafka
              ? new BrokerProbe(resolved.kafka, resolved.readiness.checkTimeoutMs)
              : null,
        },
        HttpObserverMiddleware,
        { provide: APP_INTERCEPTOR, useClass: InboxObserverInterceptor },
      ],
      exports: [MetricsRegistry],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpObserverMiddleware).forRoutes('*');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.broker?.close();
    await flushTracing();
  }
}

/** Holds the resolved options, for ObservabilityModule and the logger module it configures. */
@Module({})
class ObservabilityOptionsModule {}

const OBSERVABILITY_OPTIONS = Symbol('OBSERVABILITY_OPTIONS');
/** The names of the outbox's metrics on the app's registry (null without OutboxModule). */
const OUTBOX_METRICS = Symbol('OUTBOX_METRICS');
/** The names of the inbox's metrics on the app's registry (null without InboxModule). */
const INBOX_METRICS = Symbol('INBOX_METRICS');

/** The options with the readiness thresholds resolved. */
interface ResolvedOptions extends Omit<ObservabilityOptions, 'readiness'> {
  readiness: ReadinessThresholds;
}

/** The options from a service's validated environment. */
function observabilityFromEnv(
  service: string,
  env: ServiceEnv & Partial<CommonEnv>,
): ObservabilityOptions {
  return {
    service,
    logLevel: env.LOG_LEVEL,
    ...(env.KAFKA_BROKERS && {
      kafka: {
        brokers: env.KAFKA_BROKERS,
        clientId: env.KAFKA_CLIENT_ID ?? service,
        ...kafkaClientSecurity(env),
      },
    }),
    readiness: {
      ...(env.HEALTH_OUTBOX_MAX_AGE_MS && { outboxMaxAgeMs: env.HEALTH_OUTBOX_MAX_AGE_MS }),
      ...(env.HEALTH_RELAY_STALL_MS && { relayStallMs: env.HEALTH_RELAY_STALL_MS }),
      ...(env.HEALTH_CHECK_TIMEOUT_MS && { checkTimeoutMs: env.HEALTH_CHECK_TIMEOUT_MS }),
    },
  };
}

function resolveReadiness(partial: Partial<ReadinessThresholds> = {}): ReadinessThresholds {
  const resolved = { ...DEFAULT_READINESS, ...partial };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(
        `ObservabilityModule: readiness.${name} must be a positive integer, got ${value}`,
      );
    }
  }
  return resolved;
}
