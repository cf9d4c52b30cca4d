import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/**
 * Every public name of every entry point of the adoptable packages, values and types, each with
 * the one-line reason an adopter needs it: what they call, implement, catch, configure or read.
 * A name only the package's own tests need has no reason to be here (it is imported from its
 * file, or from `/testing` when adopters' tests need it too). A change here changes what
 * adopters can import: make it on purpose, and say so in the package's README and CHANGELOG.
 */
const SURFACE: Record<string, Record<string, string>> = {
  '@outbox-inbox/messaging': {
    PartitionRange: "one partition's offsets as topicRanges answers them",
    StreamTopicOptions: 'the options of streamTopic (batch size, group prefix, timeout)',
    TopicMessage: 'one message as the topic reader hands it out',
    readWholeTopic: 'reads a topic to its end: dead-letter tooling and invariant checks',
    streamTopic: 'reads a topic to its end batch by batch, for large topics',
    topicRanges: "a topic's partitions with their low and high offsets, before a read",
    CodedError: 'the base of every typed error an adopter catches and narrows by its code',
    BROKER_ACCESS_CODES:
      'the codes of a cluster refusing a client (login, untrusted or expired certificate): operational faults',
    BrokerAccessCode: 'one of BROKER_ACCESS_CODES, as health details and stats name it',
    brokerAccessRefusalOf:
      "which BROKER_ACCESS_CODES a client's error is, for both packages and adopters' checks",
    brokerAccessRemedy: 'the fix an operator makes for a BrokerAccessCode, shown beside it',
    EventDefinition:
      'the type of what defineEvent returns: handed to OutboxWriter.add and @OnEvent',
    EventEnvelope: 'the envelope an inbox handler receives and the relay publishes',
    EventHeader: 'the Kafka header names of the envelope, for consumers outside the packages',
    EventRegistry: 'the event types a consumer decodes: InboxModule requires one',
    EventValidationError: 'what an invalid payload throws: adopters catch it at their boundary',
    FieldError: 'one failing field of an EventValidationError, as adopters report it',
    IsStrictIso8601:
      "class-validator's strict ISO 8601 rule without its regex for toISOString()'s form: payload timestamps",
    KafkaConnection: 'the Kafka settings (or own kafkajs client) of OutboxModule and InboxModule',
    MessageTracing: 'the port an adopter implements to carry traces other than OpenTelemetry',
    NewEvent: 'what OutboxWriter.add takes: an event before it gets its envelope',
    OutgoingBatch: 'a parameter of MessageTracing.publish, for its implementers',
    OutgoingMessage: 'a parameter of MessageTracing.publish, for its implementers',
    PayloadClass: 'the payload class a defineEvent call names (a parameter type of defineEvent)',
    PayloadOf: "an event definition's payload type, for adopters' typed helpers and handlers",
    TraceContext: 'the W3C trace fields of an envelope, read by custom MessageTracing',
    ValidateOptions: 'the options of validatePlain',
    createEnvelope: 'builds a validated envelope outside the writer (other producers, tests)',
    defineEvent: 'declares a versioned event type: the first thing an adopter writes',
    envelopeHeaders: 'the envelope as Kafka headers, for producers that bypass the relay',
    eventKeyOf: "an envelope's idempotency key, as the inbox records it",
    fieldErrorsOf: "class-validator's errors as FieldError paths, for adopters' own checks",
    isStrictIso8601: "the verdict of IsStrictIso8601 on one string, for adopters' own checks",
    kafkaClient: 'a kafkajs client from KafkaConnection, for an app that wants the same one',
    kafkaConnectionProblems: 'validates KafkaConnection settings in an adopter config check',
    missingTopics: 'which topics the cluster lacks: an app-level start-up check',
    openTelemetryTracing: 'the default MessageTracing, for adopters who wrap or pass it',
    readHeaders: 'Kafka headers read back as strings, for consumers outside the inbox',
    validateEnvelope: 'validates an envelope read from a row or Kafka against its definition',
    validateEnvelopeOnly: 'validates the envelope fields when the event type is unknown here',
    validatePlain: "class-validator checks of a plain object, with each failing field's path",
  },
  '@outbox-inbox/messaging/http': {
    invalidRequest: "the 400 answer of a request that fails validation, with every field's error",
    validInput: 'the one ValidationPipe of the operator routes and the services: whitelist, 400s',
    OperatorName: "parameter decorator: the calling operator's name for the audit log",
    UNNAMED_OPERATOR: 'what OperatorName answers without an authenticated user',
    DegradedCause: 'the `cause` field of a 503 DegradedReadBody, for clients reading it',
    DegradedRead: "makes an adopter's own operator read answer 503 with what it knows",
    DegradedReadBody: 'the body of a DegradedRead 503, for clients and typed tests',
    KnownState: "the callback type of DegradedRead's argument",
    OperatorRoutes: 'the `routes` argument of operatorControllers: on, off, or behind guards',
    PageLimit: "the `limit` query validation of an adopter's own list routes",
    operatorControllers: "mounts an adopter's operator controllers as the packages mount theirs",
  },
  '@outbox-inbox/messaging/testing': {
    ContractIt: "the `it` a contract suite declares its cases with, the runner's or a stand-in",
    ContractMatchers: 'the subset of expect() the contract suites use, met by Jest and Vitest',
    ContractRunner: "the test functions a contract suite takes, when not the runner's globals",
    runnerGlobals: "the runner's global test functions (Jest, or Vitest with globals: true)",
    eventually: 'polls a check until it passes: what adopters wait with in contract fixtures',
    featureGate: 'runs a contract case only for the faults a fixture declares it can inject',
  },
  '@outbox-inbox/database': {
    BackoffPolicy: 'the shape of a retry backoff (backoffDelay, InboxRetryPolicy)',
    CompareAndSet: 'the statement compareAndSet builds, which an adopter runs',
    CreateOperatorAuditTable:
      'the audit table standalone: apps that list it in their migrations keep working',
    DEFAULT_TRANSACTION_RETRY: "runTransaction's default retry, to extend in an adopter's own",
    DataSourceConfig: 'the options of mysqlDataSourceOptions and postgresDataSourceOptions',
    DataSourceRef: 'the `dataSource` option of OutboxModule and InboxModule',
    DatabaseEnv: 'the variables databaseConfigFromEnv reads, for an app config to implement',
    DeploymentFault: 'a missing table, column or grant, as the stats and probes report it',
    KeyColumns: "the columns collateKeyColumns changes in an adopter's migration",
    KeyColumnsByteForByte: "migration base: an adopter's key columns compare byte for byte",
    NotificationListener: 'a LISTEN session of SqlNotifications, for its implementers',
    OperatorActionAudit:
      'what an operator action records in the audit log: the outbox and the inbox re-export it',
    OperatorAuditEntry: 'what recordOperatorAction writes',
    OperatorAuditRecord: 'what readOperatorAudit returns, for an audit view',
    Queryable: 'what runStatements runs on: an EntityManager or a QueryRunner',
    RequiredTable: 'what probeSchema checks: tables, columns and privileges an app needs',
    SchemaProbe: "the read port of a module's schema check, for readiness endpoints",
    SqlDialect: 'what sqlDialectOf returns: engine options, statements, error classes',
    SqlEngine: "the engines the packages run on: 'mysql' or 'postgres'",
    SqlNotifications: "the dialect's LISTEN/NOTIFY part (PostgreSQL), for its implementers",
    Statement: 'one statement of runStatements, with its parameters and how to read its result',
    TransactionRetryPolicy: 'the retry option of runTransaction',
    UnreadableTable: 'what unreadableTables reports: a table and why it cannot be read',
    affectedRows: "how many rows an adopter's own write changed, whatever the driver answered",
    allowsMultipleStatements: 'whether a DataSource may take several statements in one query',
    backoffDelay: "the delay of a retry attempt, for adopters' own retry loops",
    collateKeyColumns: "for an adopter's migration: key columns that compare byte for byte",
    compareAndSet: 'an optimistic UPDATE at an expected version, as the apps write aggregates',
    dataSourceProvider: "a Nest provider of a DataSource named by ref, for adopters' modules",
    databaseConfigFromEnv: 'the DataSource settings from DATABASE_URL, DB_POOL_SIZE, lock wait',
    delay: 'an awaitable pause (backoffDelay waits), for adopters with their own retries',
    deploymentFaultOf: 'tells a missing table, column or grant from a driver error',
    engineOf: "a DataSource's engine, for SQL an adopter writes per engine",
    isDeploymentFault: 'whether an error is a half-done deployment, for custom classifiers',
    isDuplicateKeyError: 'whether an error is a duplicate key, on either engine',
    isTransientDbError: 'whether an error is worth retrying (deadlock, lock wait, lost link)',
    probeSchema: "checks an app's own tables, columns and grants as its user sees them",
    readOperatorAudit: 'reads the operator audit log (an audit view or route)',
    recordOperatorAction: "writes an operator action to the audit log in the action's transaction",
    runStatements: 'several statements in one round trip where the DataSource allows it',
    transactionCommittingWith:
      'a transaction whose last statements travel with its COMMIT: the relay claim in two round trips',
    CommittingTransaction: 'what transactionCommittingWith hands its callback',
    TransactionIsolation: 'the isolation levels transactionCommittingWith takes',
    runTransaction: 'one transaction with the retry of transient errors, as the apps run commands',
    sqlDialectOf: "a DataSource's dialect, loaded with its driver on first use",
    unreadableTables: "which of an app's tables its connection cannot read: a start-up check",
    withTimeout: 'bounds a probe or health check that could hang',
  },
  '@outbox-inbox/database/mysql': {
    MysqlDataSourceConfig: 'the options of mysqlDataSourceOptions and openMysqlDataSource',
    ensureDatabase: "creates an app's MySQL/MariaDB database when it does not exist yet",
    mysqlDataSourceOptions: "TypeORM options for an app's MySQL/MariaDB DataSource",
    mysqlDialect: "MySQL/MariaDB's SqlDialect: sqlDialectOf loads it from this subpath",
    openMysqlDataSource: 'an initialised MySQL/MariaDB DataSource for scripts and workers',
  },
  '@outbox-inbox/database/postgres': {
    ensurePostgresDatabase: "creates an app's PostgreSQL database when it does not exist yet",
    openPostgresDataSource: 'an initialised PostgreSQL DataSource for scripts and workers',
    postgresAffectedRows: "rows an adopter's PostgreSQL write changed, RETURNING rows included",
    postgresDataSourceOptions: "TypeORM options for an app's PostgreSQL DataSource",
    postgresDialect: "PostgreSQL's SqlDialect: sqlDialectOf loads it from this subpath",
  },
  '@outbox-inbox/outbox': {
    AggregateOutboxRow: 'what OutboxOperations.rowsOfAggregate returns',
    Claim: 'part of the store port (OutboxClaims) a custom store implements',
    ClaimedRow: 'a row of a Claim: part of the store port a custom store implements',
    DEFAULT_RELAY_OPTIONS: "the relay defaults, to derive an adopter's tuning from",
    DEFAULT_RETENTION: "the retention defaults, to derive an adopter's retention from",
    DeadEventPolicy: 'the `deadPolicy` relay option: block an aggregate behind a DEAD row or not',
    DeadOutboxRow: 'what OutboxOperations.listDead returns',
    DeadRowFilter: 'the filter of listDead and requeueDead',
    KafkaOutboxPublisher: 'the kafkajs publisher, to wrap in an own OutboxPublisher',
    OUTBOX_ERROR_CODES: 'every OutboxError code, for exhaustive handling',
    OperatorActionAudit: 'the `audit` argument of requeueDead: who and why',
    OutboxClaims: 'the claim port a custom store implements (runOutboxStoreContract states it)',
    OutboxCheckOnStart: 'the `checkOnStart` option of OutboxModule',
    OutboxCommitNotifier: 'wakes the relay after a commit; createOutboxRelay takes one',
    OutboxError: 'the typed error OutboxWriter and the options throw',
    OutboxErrorCode: 'the union of OutboxError codes',
    OutboxKafkaOptions: 'the `kafka` option of OutboxModule and createOutboxRelay',
    OutboxMessage: 'a message of a TopicBatch, for OutboxPublisher implementers',
    OutboxMigrations: "t_outbox's migrations, which every app lists",
    OutboxModule: 'the Nest module: writer, relay, operations, retention',
    OutboxModuleExtras: 'the declaration-time options of OutboxModule (dataSource)',
    OutboxModuleOptions: 'the options of OutboxModule.forRoot and forRootAsync',
    OutboxOperations: 'stats, DEAD rows, requeue and pruning, for operator code',
    OutboxOutcomes: 'the outcome port a custom store implements (runOutboxStoreContract states it)',
    OutboxPublisher: 'the publishing port an adopter implements to replace Kafka',
    OutboxPublisherFactory:
      "the `createPublisher` option: the relay's publisher from its Kafka settings",
    OutboxPublisherTuning: "what an OutboxPublisherFactory is handed: one send's bounds",
    OutboxReadPorts: 'the tokens of the read-only ports, for monitoring code',
    OutboxRelay: 'the relay provider an app injects to start, stop, wake or read it',
    OutboxRelayConfig: 'the options of createOutboxRelay',
    OutboxRelayCounters: 'what OutboxRelay.counts returns, for monitoring',
    OutboxRelayEnv: 'the variables relayOptionsFromEnv reads, for an app config to implement',
    OutboxRelayHeartbeat: 'what OutboxRelay.heartbeat returns, for liveness checks',
    OutboxRelayOptions: 'the relay options of OutboxModule and createOutboxRelay',
    OutboxRelayStats: 'the read-only relay port, for monitoring',
    OutboxRetention:
      'the retention timer OutboxModule registers, injected to prune on demand (runOnce)',
    OutboxRetentionOptions: 'the `retention` option of OutboxModule',
    OutboxStats: 'what OutboxOperations.stats returns',
    OutboxStatsSource: 'the read-only stats port, for monitoring',
    OutboxStatus: "a row's statuses, for adopters reading t_outbox",
    OutboxWriter: "adds events in the caller's transaction: the reason to adopt the package",
    PruneOptions: 'the options of OutboxOperations.pruneSent',
    RelayFault: 'what OutboxRelay.faults reports: a missing table, grant or topic',
    TopicBatch: 'what OutboxPublisher.publish takes, for its implementers',
    RefusedTopic: 'a topic in a TopicUnavailableError, for OutboxPublisher implementers',
    TOPIC_REFUSAL_CODES: 'every TopicRefusalCode, for OutboxPublisher implementers',
    TopicRefusalCode: 'why a topic was refused (missing, denied)',
    TopicUnavailableError: 'what a custom OutboxPublisher throws so the relay holds rows',
    createOutboxRelay: 'a standalone relay process without Nest modules',
    probeOutboxSchema: "what t_outbox lacks on a DataSource, for an app's readiness",
    relayOptionsFromEnv: "the relay options from a service's OUTBOX_* variables",
  },
  '@outbox-inbox/outbox/http': {
    OutboxHttpController: 'the /outbox routes, for apps that mount or document them',
    OutboxHttpModule: 'mounts the /outbox operator routes beside OutboxModule',
    OutboxHttpOptions: 'the options of OutboxHttpModule.register (guards)',
  },
  '@outbox-inbox/outbox/health': {
    OutboxBacklogCheckOptions: "the options of OutboxHealthIndicator's backlog check",
    OutboxHealthIndicator: 'terminus indicators of the relay and the backlog',
    OutboxHealthModule: 'provides OutboxHealthIndicator beside OutboxModule',
    RelayCheckOptions: "the options of OutboxHealthIndicator's relay check",
  },
  '@outbox-inbox/outbox/metrics': {
    OutboxMetricsModule: "registers the outbox's Prometheus metrics beside OutboxModule",
    OutboxMetricsOptions: 'the options of registerOutboxMetrics and OutboxMetricsModule',
    OutboxMetricsSources: 'the read ports registerOutboxMetrics reads',
    registerOutboxMetrics: "the outbox's Prometheus metrics on an app's own registry",
  },
  '@outbox-inbox/outbox/confluent': {
    ConfluentOutboxPublisher: 'the librdkafka publisher, to wrap in an own OutboxPublisher',
    confluentOutboxPublisher:
      '`createPublisher` for the relay on librdkafka (KAFKA_CLIENT=confluent)',
  },
  '@outbox-inbox/outbox/testing': {
    AroundSend: 'the `around` option of InMemoryOutboxPublisher, shaping each send',
    InMemoryOutboxPublisher: "the publisher's in-memory twin, for adopters' relay tests",
    InMemoryOutboxPublisherOptions: 'the options of InMemoryOutboxPublisher',
    InMemoryOutboxStore: "t_outbox's in-memory twin, a reference for a custom store",
    OutboxClaimTuning: 'part of OutboxStoreUnderTest, for store fixture authors',
    OutboxOutcomeTuning: 'part of OutboxStoreUnderTest, for store fixture authors',
    OutboxPublisherFeature: 'the faults a publisher fixture declares it can inject',
    OutboxPublisherFixture: "what a custom publisher's contract fixture provides",
    OutboxPublisherUnderTest: 'what a publisher fixture hands each contract case',
    OutboxQuery: "one statement of OutboxSql, to EXPLAIN on an adopter's data",
    OutboxRowState: 'a row as the store contract reads it, for fixture authors',
    OutboxSql: "the statements of t_outbox, to EXPLAIN on an adopter's data",
    OutboxStoreFeature: 'the faults a store fixture declares it can inject',
    OutboxStoreFixture: "what a custom store's contract fixture provides",
    OutboxStoreUnderTest: 'what a store fixture hands each contract case',
    OutboxTestEvent: 'an event the store contract writes, for fixture authors',
    OutboxTestHarness: "an app's own tests: the events its commands wrote, relayed in process",
    PublishedEvent: 'what OutboxTestHarness reports as published',
    ReceivedMessage: 'what a publisher fixture reads back from its broker',
    WrittenFilter: 'the filter of OutboxTestHarness.written',
    outboxSqlOf: "the statements of t_outbox for a DataSource's engine",
    runOutboxPublisherContract: 'the contract a custom OutboxPublisher must pass',
    runOutboxStoreContract: 'the contract a custom store of t_outbox must pass',
  },
  '@outbox-inbox/inbox': {
    AggregateSelector: 'the argument of InboxOperations.deliveriesOf',
    BlockCause: 'why a partition is paused, in stats and metrics',
    ConsumerFault:
      'why the consumer is not reading (a refused login, a denied topic or group), in stats',
    BlockedPartition: 'a paused partition, as InboxCounters report it',
    DEAD_LETTER_CODES: 'the codes a dead letter can carry, for DLQ tooling',
    DeadLetterCode: 'the union of codes a dead letter can carry',
    DeadLetterHeader: "the dead letters' header names, for DLQ tooling",
    DeadLetterMessage: 'what InboxDeadLetters.list returns',
    DeliveryPosition: 'where a message came from: topic, partition, offset',
    FailureClassifier: 'the `classifyFailure` option an adopter implements',
    FailureKind: 'what a FailureClassifier answers',
    INBOX_ERROR_CODES: 'every InboxError code, for exhaustive handling',
    InboxBatchContext: 'the @Ctx() of an @OnEventBatch handler',
    InboxBatchDelivery: "one event's origin in an InboxBatchContext",
    InboxBlockedBackoff: 'the `blockedBackoff` option of InboxModule',
    InboxContext: 'the @Ctx() of an @OnEvent handler: its transaction and origin',
    InboxCounters: 'the read-only counters port, for monitoring',
    InboxDeadLetters: 'lists and replays dead letters, for operator code',
    InboxDelivery: "an event's origin in an InboxContext",
    InboxDeliveryRecord: 'what InboxOperations.deliveriesOf returns',
    InboxError: 'the typed error of the inbox (options, start, blocked partitions)',
    InboxErrorCode: 'the union of InboxError codes',
    InboxLatencyListener: 'a listener of settle latencies, for custom metrics',
    InboxMessageScope: 'an app provides one to settle each message in its own context',
    InboxMetrics: 'the counters provider an app injects (the InboxCounters port)',
    InboxMigrations: "the inbox's migrations, which every consuming app lists",
    InboxModule: 'the Nest module: transport, operations, dead letters',
    InboxModuleExtras: 'the declaration-time options of InboxModule (dataSource)',
    InboxModuleOptions: 'the options of InboxModule.forRoot and forRootAsync',
    InboxOperations: 'stats, gaps, deliveries, gap skips and pruning, for operator code',
    InboxOutcome: 'what became of a message, as latency listeners and metrics see it',
    InboxReadPorts: 'the tokens of the read-only ports, for monitoring code',
    InboxRetryPolicy: 'the `retry` option of InboxModule',
    InboxTopicCreation: 'the `topicCreation` option of InboxModule',
    InboxStats: 'what InboxOperations.stats returns',
    InboxStatsSource: 'the read-only stats port, for monitoring',
    InboxTransport: 'the Nest transport an app connects with connectMicroservice',
    NonRetryableError: 'a handler throws it to dead-letter a message at once',
    OnEvent: 'declares an inbox handler of one event type',
    OnEventBatch: 'declares an inbox handler that takes runs of events',
    OnEventOptions: 'the options of @OnEvent and @OnEventBatch',
    OpenGap: 'a missing version, as InboxOperations.openGaps returns it',
    OperatorActionAudit: 'the `audit` argument of replay and skipVersion: who and why',
    PartitionLag: "a partition's lag, as InboxCounters report it",
    ReplayRequest: 'the argument of InboxDeadLetters.replay',
    ReplayResult: 'what InboxDeadLetters.replay returns',
    SkipVersionRequest: 'the argument of InboxOperations.skipVersion',
    SkipVersionResult: 'what InboxOperations.skipVersion returns',
    classifyFailure: 'the default classifier, to wrap in an own FailureClassifier',
    groupTimingFromEnv: "the consumer group's timing from a service's KAFKA_* variables",
    inboxOptionsFromEnv: "the inbox options from a service's INBOX_* variables",
    probeInboxSchema: "what the inbox tables lack on a DataSource, for an app's readiness",
    resolveInboxOptions: "validates InboxModule options in an app's own config check",
  },
  '@outbox-inbox/inbox/http': {
    InboxHttpController: 'the /inbox routes, for apps that mount or document them',
    InboxHttpModule: 'mounts the /inbox operator routes beside InboxModule',
    InboxHttpOptions: 'the options of InboxHttpModule.register (guards)',
  },
  '@outbox-inbox/inbox/health': {
    InboxBacklogCheckOptions: "the options of InboxHealthIndicator's backlog check",
    InboxHealthIndicator: 'terminus indicators of the consumer and the backlog',
    InboxHealthModule: 'provides InboxHealthIndicator beside InboxModule',
  },
  '@outbox-inbox/inbox/metrics': {
    InboxMetricsModule: "registers the inbox's Prometheus metrics beside InboxModule",
    InboxMetricsOptions: 'the options of registerInboxMetrics and InboxMetricsModule',
    InboxMetricsSources: 'the read ports registerInboxMetrics reads',
    registerInboxMetrics: "the inbox's Prometheus metrics on an app's own registry",
  },
  '@outbox-inbox/inbox/testing': {
    Admission: 'part of the InboxStore port, for custom store authors',
    AggregateRef: 'part of the InboxStore port, for custom store authors',
    CapturedDeadLetter: 'a dead letter as InboxTestHarness captures it',
    DeadLetterReason: "a captured dead letter's reason, as its inbox-* headers say",
    DeliverAt: 'the `at` argument of InboxTestHarness.deliver',
    HarnessDelivery: 'a delivery InboxTestHarness made, with its result',
    InboxDeliveryResult: 'what InboxTestHarness.deliver returns',
    InboxHooks: 'the hooks InboxHooksModule hands to InboxModule in tests',
    InboxHooksModule: 'fault-injection and measuring points, for tests and benchmarks only',
    InboxTestHarness: "an app's own tests: events through the real inbox path, without Kafka",
    InboxTestHarnessOptions: 'the options of InboxTestHarness.create',
    GateRow: 'part of the InboxStore port, for custom store authors',
    GateRowState: 'a version gate row as the store contract reads it, for fixture authors',
    InMemoryInboxDatabase: "the inbox tables' in-memory twin, for harness tests and fixtures",
    InMemoryInboxTransaction: "the twin's transaction, the `Tx` of its fixture",
    InboxBatchStore: 'the batch part of the store port, for custom store authors',
    InboxRowState: 'an inbox row as the store contract reads it, for fixture authors',
    InboxStore: 'the store port the contract states, for custom store authors',
    InboxStoreFeature: 'the faults a store fixture declares it can inject',
    InboxStoreFixture: "what a custom store's contract fixture provides",
    InboxStoreUnderTest: 'what a store fixture hands each contract case',
    InboxTables: "a store's rows as the contract reads them, for fixture authors",
    ParkedEvent: 'part of the InboxStore port, for custom store authors',
    ParkedRowState: 'a parked row as the store contract reads it, for fixture authors',
    StoredOutcome: 'part of the InboxStore port, for custom store authors',
    runInboxStoreContract: 'the contract a custom inbox store must pass',
  },
};

/** `@outbox-inbox/outbox/http` → packages/outbox/src/http/index.ts */
function entryFile(specifier: string): string {
  const [, pkg, subpath] = /^@outbox-inbox\/([^/]+)(?:\/(.+))?$/.exec(specifier)!;
  return join(ROOT, 'packages', pkg, 'src', subpath ?? '', 'index.ts');
}

/** The files `entry` reaches through relative imports, and the bare module names they import. */
function reach(entry: string): { files: Set<string>; external: Set<string> } {
  const seen = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.sys.readFile(file) ?? '';
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (!fileName.startsWith('.')) {
        external.add(fileName);
        continue;
      }
      const base = resolve(dirname(file), fileName);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files: seen, external };
}

describe('the public surface of the packages', () => {
  const specifiers = Object.keys(SURFACE);
  const { options } = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  )!;
  const program = ts.createProgram(specifiers.map(entryFile), { ...options, noEmit: true });
  const checker = program.getTypeChecker();

  it.each(specifiers)('%s exports exactly the listed names', (specifier) => {
    const source = program.getSourceFile(entryFile(specifier));
    expect(source).toBeDefined();
    const names = checker
      .getExportsOfModule(checker.getSymbolAtLocation(source!)!)
      .map((symbol) => symbol.name)
      .sort();
    expect(names).toEqual(Object.keys(SURFACE[specifier]).sort());
  });

  it.each(specifiers)('%s gives a one-line reason for each exported name', (specifier) => {
    const unexplained = Object.entries(SURFACE[specifier])
      .filter(([, reason]) => !/^\S[^\n]{9,}$/.test(reason))
      .map(([name]) => name);
    expect(unexplained).toEqual([]);
  });

  it.each(['outbox', 'inbox', 'messaging'])(
    "@outbox-inbox/%s's core reaches neither @nestjs/swagger nor its /http or /testing files",
    (pkg) => {
      const { files, external } = reach(entryFile(`@outbox-inbox/${pkg}`));
      const subpathFiles = [...files].filter((file) => /\/src\/(http|testing)\//.test(file));
      expect(subpathFiles.map((file) => relative(ROOT, file))).toEqual([]);
      const imports = [...external];
      expect(imports.filter((name) => name.startsWith('@nestjs/swagger'))).toEqual([]);
      expect(imports.filter((name) => /\/(http|testing)$/.test(name))).toEqual([]);
    },
  );

  it.each(['outbox', 'inbox'])(
    "@outbox-inbox/%s's core reaches neither @nestjs/terminus nor prom-client (optional peers of /health and /metrics)",
    (pkg) => {
      const { files, external } = reach(entryFile(`@outbox-inbox/${pkg}`));
      expect(
        [...external].filter((name) => /^(@nestjs\/terminus|prom-client)$/.test(name)),
      ).toEqual([]);
      const subpathEntries = [...files].filter((file) =>
        /\/src\/(health|metrics)\/index\.ts$/.test(file),
      );
      expect(subpathEntries).toEqual([]);
    },
  );

  it('lists every entry point that a package.json exports', () => {
    const exported = ['messaging', 'database', 'outbox', 'inbox'].flatMap((pkg) => {
      const manifest = JSON.parse(
        readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8'),
      ) as { exports: Record<string, unknown> };
      return Object.keys(manifest.exports)
        .filter((key) => key !== './package.json')
        .map((key) => `@outbox-inbox/${pkg}${key.slice(1)}`);
    });
    expect(exported.sort()).toEqual([...specifiers].sort());
    for (const specifier of specifiers) {
      expect(relative(ROOT, entryFile(specifier))).toMatch(/^packages\//);
    }
  });

  // An app's tests run under Jest (CommonJS or ES modules), Vitest or node:test: the harnesses
  // take nothing from any of them.
  it.each([
    'packages/inbox/src/testing/inbox-test-harness.ts',
    'packages/outbox/src/testing/outbox-test-harness.ts',
  ])('the app test harness %s imports no test runner', (file) => {
    const { files, external } = reach(join(ROOT, file));
    expect(files.size).toBeGreaterThan(5);
    expect(
      [...external].filter((name) => /^(@jest\/|jest|vitest|node:test|mocha)/.test(name)),
    ).toEqual([]);
  });
});
