import {
  DynamicModule,
  Inject,
  Logger,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { CommonEnv, ServiceEnv } from '@app/config';
import { InboxMetrics, InboxOperations } from '@outbox-inbox/inbox';
import { OutboxOperations, OutboxRelay } from '@outbox-inbox/outbox';
import { OperatorAuthGuard } from './auth/operator-auth.guard';
import { DEFAULT_OPERATOR_NAME, OperatorTokens, parseNamedTokens } from './auth/operator-tokens';
import { InboxObserverInterceptor } from './consumer/inbox-observer.interceptor';
import { CorrelationModule } from './correlation/correlation.module';
import { BrokerProbe } from './health/broker-probe';
import { HealthHttpController } from './health/health.http.controller';
import { DEFAULT_READINESS, ReadinessThresholds } from './health/readiness-thresholds';
import { HttpObserverMiddleware } from './http/http-observer.middleware';
import { pinoOptions } from './logging/pino-options';
import { BrokerMetrics } from './metrics/broker-metrics';
import { HttpMetrics } from './metrics/http-metrics';
import { InboxMetricsCollector } from './metrics/inbox-metrics.collector';
import { MetricsHttpController } from './metrics/metrics.http.controller';
import { MetricsRegistry } from './metrics/metrics-registry';
import { OutboxMetrics } from './metrics/outbox-metrics';
import { ObservabilityAsyncOptions, ObservabilityOptions } from './observability.options';
import { BROKER_PROBE, READINESS_THRESHOLDS } from './observability.tokens';
import { flushTracing } from './tracing/start-tracing';

/**
 * Metrics (`GET /metrics`), health (`/health`, `/health/live`, `/health/ready`), JSON logs
 * with correlation and trace ids, trace propagation through HTTP and inbox handlers, and the
 * operator token that every HTTP route not marked @PublicRoute() needs, for one service. Outbox and inbox metrics and checks appear when OutboxModule or InboxModule is
 * in the app. Use the app logger with `app.useLogger(app.get(Logger))` (bootstrapService does).
 */
@Module({})
export class ObservabilityModule implements NestModule, OnApplicationShutdown {
  constructor(@Optional() @Inject(BROKER_PROBE) private readonly broker?: BrokerProbe | null) {}

  /**
   * The usual wiring from a service's validated environment, read at DI time from `schema` (the
   * config class `serviceConfig` provides): LOG_LEVEL, OPS_API_TOKEN or OPS_API_INSECURE, the
   * Kafka brokers to probe (services on Kafka) and the HEALTH_* readiness thresholds.
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
    resolveOperatorToken(options.operatorAuth);
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
            return {
              ...resolved,
              readiness: resolveReadiness(resolved.readiness),
              token: resolveOperatorToken(resolved.operatorAuth),
            };
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
        {
          provide: OutboxMetrics,
          inject: [
            MetricsRegistry,
            { token: OutboxOperations, optional: true },
            { token: OutboxRelay, optional: true },
          ],
          useFactory: (
            r: MetricsRegistry,
            operations?: OutboxOperations,
            relay?: OutboxRelay | null,
          ) => (operations ? new OutboxMetrics(r, operations, relay) : null),
        },
        {
          provide: InboxMetricsCollector,
          inject: [
            MetricsRegistry,
            { token: InboxMetrics, optional: true },
            { token: InboxOperations, optional: true },
          ],
          useFactory: (r: MetricsRegistry, metrics?: InboxMetrics, operations?: InboxOperations) =>
            metrics ? new InboxMetricsCollector(r, metrics, operations) : null,
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
        {
          provide: APP_GUARD,
          inject: [Reflector, OBSERVABILITY_OPTIONS],
          useFactory: (reflector: Reflector, resolved: ResolvedOptions) => {
            if (resolved.token === null) {
              new Logger('OperatorAuth').warn(
                'OPS_API_INSECURE=true: every operator route (outbox, inbox, ledger, fulfillments, timelines, /ops, /metrics) is open without a token',
              );
            }
            return new OperatorAuthGuard(reflector, resolved.token);
          },
        },
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

/** The options with the readiness thresholds and the operator token resolved. */
interface ResolvedOptions extends Omit<ObservabilityOptions, 'readiness'> {
  readiness: ReadinessThresholds;
  token: OperatorTokens | null;
}

/** The options from a service's validated environment. */
function observabilityFromEnv(
  service: string,
  env: ServiceEnv & Partial<CommonEnv>,
): ObservabilityOptions {
  return {
    service,
    logLevel: env.LOG_LEVEL,
    operatorAuth: {
      token: env.OPS_API_TOKEN,
      namedTokens: parseNamedTokens(env.OPS_API_TOKENS ?? ''),
      insecure: env.OPS_API_INSECURE,
    },
    ...(env.KAFKA_BROKERS && {
      kafka: { brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID ?? service },
    }),
    readiness: {
      ...(env.HEALTH_OUTBOX_MAX_AGE_MS && { outboxMaxAgeMs: env.HEALTH_OUTBOX_MAX_AGE_MS }),
      ...(env.HEALTH_RELAY_STALL_MS && { relayStallMs: env.HEALTH_RELAY_STALL_MS }),
      ...(env.HEALTH_CHECK_TIMEOUT_MS && { checkTimeoutMs: env.HEALTH_CHECK_TIMEOUT_MS }),
    },
  };
}

/** The token to check, or null when the operator routes are knowingly open. */
function resolveOperatorToken(auth: ObservabilityOptions['operatorAuth']): OperatorTokens | null {
  const named = auth.namedTokens ?? [];
  if (auth.token !== undefined || named.length > 0) {
    return new OperatorTokens([
      ...(auth.token === undefined ? [] : [{ name: DEFAULT_OPERATOR_NAME, token: auth.token }]),
      ...named,
    ]);
  }
  if (auth.insecure === true) return null;
  throw new Error(
    'ObservabilityModule: the operator routes need a token (OPS_API_TOKEN or OPS_API_TOKENS) unless OPS_API_INSECURE=true',
  );
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
