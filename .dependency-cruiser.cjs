// The layer rules of this codebase, checked by `npm run lint` (lint:layers). Each rule's name is
// what scripts/check-layer-rules.sh plants a violation of, to prove the rule still bites.
const FRAMEWORKS =
  '(^|/)node_modules/(@nestjs|typeorm|kafkajs|mysql2|class-validator|class-transformer|' +
  '@opentelemetry|nestjs-pino|pino|pino-http|express|prom-client|rxjs)(/|$)';

/**
 * Each package's folders, from the top down, as its README's "Code layout" lists them: a folder
 * imports only the folders below it (and the package's shared root files), never one above it
 * or the module that wires them. `testing/` is on top: nothing in src imports the test support.
 */
const PACKAGE_FOLDERS = {
  outbox: [
    'testing',
    'health',
    'metrics',
    'http',
    'housekeeping',
    'operations',
    'relay',
    'writer',
    'publisher',
    'store',
    'migrations',
  ],
  inbox: [
    'testing',
    'health',
    'http',
    'transport',
    'handlers',
    'housekeeping',
    'operations',
    'dead-letter',
    'metrics',
    'apply',
    'migrations',
  ],
};

const folderRules = Object.entries(PACKAGE_FOLDERS).flatMap(([pkg, folders]) =>
  folders.map((folder, i) => ({
    name: 'package-folders-import-downward',
    comment:
      `packages/${pkg}/src/${folder}/ imports only the folders below it in the package's ` +
      'code layout, so a reader follows the package from the module down.',
    severity: 'error',
    from: { path: `^packages/${pkg}/src/${folder}/`, pathNot: '\\.(int-)?spec\\.ts$' },
    to: {
      path: [
        `^packages/${pkg}/src/[^/]+\\.module(-definition)?\\.ts$`,
        ...folders.slice(0, i).map((upper) => `^packages/${pkg}/src/${upper}/`),
      ],
    },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...folderRules,
    {
      name: 'domain-imports-no-framework',
      comment:
        'Files under a domain/ folder are the business rules: plain TypeScript, no Nest, ORM, ' +
        'Kafka or validation framework.',
      severity: 'error',
      from: { path: '(^|/)domain/' },
      to: { path: FRAMEWORKS },
    },
    {
      name: 'domain-imports-only-domain',
      comment:
        'A domain file depends on other domain files and on the event contracts it records ' +
        '(the catalogue and the envelope type of the messaging kernel), never on a repository, ' +
        'a service or the database package: the business rules stay testable as plain code.',
      severity: 'error',
      from: { path: '(^|/)domain/', pathNot: '\\.spec\\.ts$' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: ['(^|/)domain/', '^libs/trading-events/', '^packages/messaging/'],
      },
    },
    {
      name: 'packages-import-only-packages',
      comment:
        'What a team adopts (packages/) ships alone: its sources import other packages and ' +
        'their npm peers, never an in-house library, an app or a test kit, the private ' +
        "packages/test-kit included (it is their tests' kit, never published).",
      severity: 'error',
      from: { path: '^packages/([^/]+)/src/', pathNot: '\\.(int-)?spec\\.ts$' },
      to: {
        path: '^((libs|apps|bench|test|scripts|examples|tools)/|packages/test-kit/)',
        pathNot: '^packages/$1/',
      },
    },
    {
      name: 'packages-stand-on-the-ground-floor',
      comment:
        'packages/ is the ground floor: nothing in it, its tests and specs included, imports an ' +
        "in-house library or an app. What the packages' tests need lives in their own test " +
        'support, their /testing subpaths or packages/test-kit; the libraries build on the ' +
        'packages, so an import back up would make a circle between the floors.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(libs|apps)/' },
    },
    {
      name: 'observability-reads-packages-through-ports',
      comment:
        'Observability reads the outbox and the inbox through the read-only ports they export ' +
        '(OutboxRelayStats, OutboxStatsSource, InboxCounters, InboxStatsSource), injected by ' +
        'name: it imports their types only (`import type`), never a class of theirs. The one ' +
        'exception is the correlation scope it plugs into the inbox (InboxMessageScope, an ' +
        "abstract class the inbox looks up as its DI token). The messaging kernel's header " +
        'names and tracing hook are shared vocabulary, not a package to reach into. The ' +
        "packages' health indicators and metrics (their /health and /metrics subpaths), built " +
        'on the same ports, are what observability builds on.',
      severity: 'error',
      from: {
        path: '^libs/observability/src/',
        pathNot: [
          '\\.spec\\.ts$',
          '^libs/observability/src/correlation/(correlated-message-scope|correlation\\.module)\\.ts$',
        ],
      },
      to: {
        path: '^packages/(outbox|inbox)/',
        pathNot: '^packages/(outbox|inbox)/src/(health|metrics)/index\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-circular',
      comment:
        'Imports run one way. A circle, even of types only, means two files hold one idea or ' +
        'a shared type lives in the wrong one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-never-import-apps',
      comment: 'A library is reused by apps; it never reaches back into one, at any depth.',
      severity: 'error',
      from: { path: '^(libs|packages)/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      comment: 'Services share code through libs and talk through Kafka and HTTP, never imports.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-deep-imports-into-libs',
      comment:
        "Outside a library, only its entry points (libs/<lib>/src/index.ts, '@app/<lib>'; a " +
        "package's subpaths packages/<pkg>/src/{http,testing,health,metrics,mysql,postgres,confluent}/index.ts) are its contract; its " +
        "other files are private. Jest's global setup is the one exception: it runs before " +
        "jest's module aliases exist, so it loads the Apache Kafka controller's folder alone. " +
        "The test kit's kafka-access/ is an entry point too ('@outbox-inbox/test-kit/kafka-access'): " +
        "the operator step bundled for the runtime image, without the kit's database drivers.",
      severity: 'error',
      from: { pathNot: ['^(libs|packages)/[^/]+/', '^test/global-setup\\.js$', '^bench/'] },
      to: {
        path: '^(libs|packages)/[^/]+/src/',
        pathNot: [
          '^(libs|packages)/[^/]+/src/index\\.ts$',
          '^packages/[^/]+/src/(http|testing|health|metrics|mysql|postgres|confluent)/index\\.ts$',
          '^packages/test-kit/src/kafka-access/index\\.ts$',
        ],
      },
    },
    {
      name: 'bench-imports-entry-points-and-sql',
      comment:
        'The benches use the entry points, as no-deep-imports-into-libs says, and also the ' +
        "packages' per-engine SQL objects (packages/<pkg>/src/**/sql/), so that a baseline " +
        'runs the very statements it compares against and cannot drift from them.',
      severity: 'error',
      from: { path: '^bench/' },
      to: {
        path: '^(libs|packages)/[^/]+/src/',
        pathNot: [
          '^(libs|packages)/[^/]+/src/index\\.ts$',
          '^packages/[^/]+/src/(http|testing|health|metrics|mysql|postgres|confluent)/index\\.ts$',
          '^packages/(outbox|inbox)/src/(store|apply|operations)/sql/',
        ],
      },
    },
    {
      name: 'no-deep-imports-between-libs',
      comment: 'A library uses another library through its entry point only.',
      severity: 'error',
      from: { path: '^((?:libs|packages)/[^/]+)/' },
      to: {
        path: '^(libs|packages)/[^/]+/src/',
        pathNot: [
          '^$1/',
          '^(libs|packages)/[^/]+/src/index\\.ts$',
          '^packages/[^/]+/src/(http|testing|health|metrics|mysql|postgres|confluent)/index\\.ts$',
        ],
      },
    },
    {
      name: 'lib-tests-are-private',
      comment:
        "A library's test/ folder serves its own tests; shared kits live in packages/test-kit " +
        '(bench, apps and other libraries take them from there).',
      severity: 'error',
      from: { pathNot: '^((?:libs|packages)/[^/]+)/' },
      to: { path: '^(libs|packages)/[^/]+/test/' },
    },
    {
      name: 'lib-tests-are-private-between-libs',
      comment: "One library's tests never import another library's test files.",
      severity: 'error',
      from: { path: '^((?:libs|packages)/[^/]+)/' },
      to: { path: '^(libs|packages)/[^/]+/test/', pathNot: '^$1/' },
    },
    {
      name: 'kernel-imports-no-catalogue',
      comment:
        'The messaging kernel, the outbox and the inbox are generic: they know no business ' +
        'event catalogue (the registry and the topic mapping are options), directly or through ' +
        'another module. Their tests too: they use the neutral Parcel events of packages/test-kit.',
      severity: 'error',
      from: { path: '^packages/(messaging|outbox|inbox)/' },
      to: { path: '^libs/trading-events/', reachable: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        "An import that resolves to nothing, such as a deep '@app/<lib>/<file>' alias that no " +
        'longer exists.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|tools/kafka-mock/build|bench/results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
