import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/**
 * Every public name of every entry point of the adoptable packages, values and types, sorted.
 * A change here changes what adopters can import: make it on purpose, and say so in the
 * package's README.
 */
const SURFACE: Record<string, string[]> = {
  '@outbox-inbox/messaging': [
    'CodedError',
    'EventDefinition',
    'EventEnvelope',
    'EventHeader',
    'EventRegistry',
    'EventValidationError',
    'FieldError',
    'KafkaConnection',
    'MessageTracing',
    'NewEvent',
    'OutgoingBatch',
    'OutgoingMessage',
    'PayloadClass',
    'PayloadOf',
    'StreamTopicOptions',
    'PartitionRange',
    'TopicMessage',
    'TraceContext',
    'ValidateOptions',
    'createEnvelope',
    'defineEvent',
    'envelopeHeaders',
    'eventKeyOf',
    'fieldErrorsOf',
    'kafkaClient',
    'kafkaConnectionProblems',
    'missingTopics',
    'openTelemetryTracing',
    'readHeaders',
    'readWholeTopic',
    'streamTopic',
    'topicRanges',
    'validateEnvelope',
    'validateEnvelopeOnly',
    'validatePlain',
  ],
  '@outbox-inbox/messaging/http': [
    'OperatorName',
    'UNNAMED_OPERATOR',
    'DegradedCause',
    'DegradedRead',
    'DegradedReadBody',
    'KnownState',
    'OperatorRoutes',
    'PageLimit',
    'invalidRequest',
    'operatorControllers',
    'validInput',
  ],
  '@outbox-inbox/messaging/testing': ['eventually', 'featureGate'],
  '@outbox-inbox/database': [
    'BackoffPolicy',
    'CompareAndSet',
    'CreateOperatorAuditTable',
    'DEFAULT_TRANSACTION_RETRY',
    'DataSourceConfig',
    'DataSourceRef',
    'DatabaseEnv',
    'DeploymentFault',
    'KeyColumns',
    'KeyColumnsByteForByte',
    'NotificationListener',
    'OperatorActionAudit',
    'OperatorAuditEntry',
    'OperatorAuditRecord',
    'Queryable',
    'RequiredTable',
    'SchemaProbe',
    'SqlDialect',
    'SqlEngine',
    'SqlNotifications',
    'Statement',
    'TransactionRetryPolicy',
    'UnreadableTable',
    'affectedRows',
    'allowsMultipleStatements',
    'backoffDelay',
    'collateKeyColumns',
    'compareAndSet',
    'dataSourceProvider',
    'databaseConfigFromEnv',
    'delay',
    'deploymentFaultOf',
    'engineOf',
    'isDeploymentFault',
    'isDuplicateKeyError',
    'isTransientDbError',
    'probeSchema',
    'readOperatorAudit',
    'recordOperatorAction',
    'runStatements',
    'runTransaction',
    'sqlDialectOf',
    'unreadableTables',
    'withTimeout',
  ],
  '@outbox-inbox/database/mysql': [
    'MysqlDataSourceConfig',
    'ensureDatabase',
    'mysqlDataSourceOptions',
    'mysqlDialect',
    'openMysqlDataSource',
  ],
  '@outbox-inbox/database/postgres': [
    'ensurePostgresDatabase',
    'openPostgresDataSource',
    'postgresAffectedRows',
    'postgresDataSourceOptions',
    'postgresDialect',
  ],
  '@outbox-inbox/outbox': [
    'AggregateOutboxRow',
    'AggregateVersionUnique1765100000000',
    'Claim',
    'ClaimedRow',
    'CreateOutboxTable1764700000000',
    'DEFAULT_RELAY_OPTIONS',
    'DEFAULT_RETENTION',
    'DeadEventPolicy',
    'DeadOutboxRow',
    'DeadRowFilter',
    'KafkaOutboxPublisher',
    'OUTBOX_ERROR_CODES',
    'OperatorActionAudit',
    'OutboxClaims',
    'OutboxCheckOnStart',
    'OutboxCommitNotifier',
    'OutboxError',
    'OutboxErrorCode',
    'OutboxKafkaOptions',
    'OutboxMessage',
    'OutboxMigrations',
    'OutboxModule',
    'OutboxModuleExtras',
    'OutboxModuleOptions',
    'OutboxOperations',
    'OutboxOutcomes',
    'OutboxPublisher',
    'OutboxReadPorts',
    'OutboxRelay',
    'OutboxRelayConfig',
    'OutboxRelayCounters',
    'OutboxRelayHeartbeat',
    'OutboxRelayOptions',
    'OutboxRelayParts',
    'OutboxRelayStats',
    'OutboxRetention',
    'OutboxRetentionOptions',
    'OutboxStats',
    'OutboxStatsSource',
    'OutboxStatus',
    'OutboxWriter',
    'PruneOptions',
    'RelayConnections',
    'RelayFault',
    'TopicBatch',
    'RefusedTopic',
    'TOPIC_REFUSAL_CODES',
    'TopicRefusalCode',
    'TopicUnavailableError',
    'createOutboxRelay',
    'probeOutboxSchema',
    'resolveRelayOptions',
  ],
  '@outbox-inbox/outbox/http': [
    'OutboxHttpController',
    'OutboxHttpModule',
    'OutboxHttpOptions',
    'OutboxRelayEnv',
    'relayOptionsFromEnv',
  ],
  '@outbox-inbox/outbox/testing': [
    'AroundSend',
    'InMemoryOutboxPublisher',
    'InMemoryOutboxPublisherOptions',
    'InMemoryOutboxStore',
    'OutboxClaimTuning',
    'OutboxOutcomeTuning',
    'OutboxPublisherFeature',
    'OutboxPublisherFixture',
    'OutboxPublisherUnderTest',
    'OutboxQuery',
    'OutboxRowState',
    'OutboxSql',
    'OutboxStoreFeature',
    'OutboxStoreFixture',
    'OutboxStoreUnderTest',
    'OutboxTestEvent',
    'OutboxTestHarness',
    'PublishedEvent',
    'ReceivedMessage',
    'WrittenFilter',
    'outboxSqlOf',
    'runOutboxPublisherContract',
    'runOutboxStoreContract',
  ],
  '@outbox-inbox/inbox': [
    'AggregateSelector',
    'BlockCause',
    'BlockedPartition',
    'DEAD_LETTER_CODES',
    'DeadLetterCode',
    'DeadLetterHeader',
    'DeadLetterMessage',
    'DeliveryPosition',
    'FailureClassifier',
    'FailureKind',
    'INBOX_ERROR_CODES',
    'InboxBatchContext',
    'InboxBatchDelivery',
    'InboxBlockedBackoff',
    'InboxContext',
    'InboxCounters',
    'InboxDeadLetters',
    'InboxDelivery',
    'InboxDeliveryRecord',
    'InboxError',
    'InboxErrorCode',
    'InboxHooks',
    'InboxLatencyListener',
    'InboxMessageScope',
    'InboxMetrics',
    'InboxMigrations',
    'InboxModule',
    'InboxModuleExtras',
    'InboxModuleOptions',
    'InboxOperations',
    'InboxOutcome',
    'InboxReadPorts',
    'InboxRetryPolicy',
    'InboxTopicCreation',
    'InboxStats',
    'InboxStatsSource',
    'InboxTransport',
    'NonRetryableError',
    'OnEvent',
    'OnEventBatch',
    'OnEventOptions',
    'OpenGap',
    'OperatorActionAudit',
    'PartitionLag',
    'ReplayRequest',
    'ReplayResult',
    'ResolvedInboxOptions',
    'SkipVersionRequest',
    'SkipVersionResult',
    'VersionDecision',
    'classifyFailure',
    'decideVersion',
    'probeInboxSchema',
    'resolveInboxOptions',
  ],
  '@outbox-inbox/outbox/health': [
    'OutboxBacklogCheckOptions',
    'OutboxHealthIndicator',
    'OutboxHealthModule',
    'RelayCheckOptions',
  ],
  '@outbox-inbox/outbox/metrics': [
    'OutboxMetricsModule',
    'OutboxMetricsOptions',
    'OutboxMetricsSources',
    'registerOutboxMetrics',
  ],
  '@outbox-inbox/inbox/http': [
    'InboxHttpController',
    'InboxHttpModule',
    'InboxHttpOptions',
    'groupTimingFromEnv',
    'inboxOptionsFromEnv',
  ],
  '@outbox-inbox/inbox/health': [
    'InboxBacklogCheckOptions',
    'InboxHealthIndicator',
    'InboxHealthModule',
  ],
  '@outbox-inbox/inbox/metrics': [
    'InboxMetricsModule',
    'InboxMetricsOptions',
    'InboxMetricsSources',
    'registerInboxMetrics',
  ],
  '@outbox-inbox/inbox/testing': [
    'Admission',
    'AggregateRef',
    'CapturedDeadLetter',
    'DeadLetterReason',
    'DeliverAt',
    'HarnessDelivery',
    'InboxDeliveryResult',
    'InboxTestHarness',
    'InboxTestHarnessOptions',
    'GateRow',
    'GateRowState',
    'InMemoryInboxDatabase',
    'InMemoryInboxTransaction',
    'InboxBatchStore',
    'InboxRowState',
    'InboxStore',
    'InboxStoreFeature',
    'InboxStoreFixture',
    'InboxStoreUnderTest',
    'InboxTables',
    'ParkedEvent',
    'ParkedRowState',
    'StoredOutcome',
    'runInboxStoreContract',
  ],
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
    expect(names).toEqual([...SURFACE[specifier]].sort());
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
