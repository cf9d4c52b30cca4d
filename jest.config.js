// Two projects: `unit` (no I/O, *.spec.ts) and `integration` (real MySQL/MariaDB and a real
// Kafka-protocol broker, *.int-spec.ts). `npm test` runs both.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

// @nestjs/terminus and @nestjs/config ship ES modules only; Node >= 20.19 requires them natively,
// Jest's CommonJS runtime (before Node 24.9) does not, so tests compile them to CommonJS with swc.
const esmOnly = ['@nestjs/terminus', '@nestjs/config'];
const swcEsm = ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }];

const moduleNameMapper = {
  '^@app/(trading-events|config|service-bootstrap|trading-test-kit|coupon-client|trading-checker|observability)$':
    '<rootDir>/libs/$1/src',
  // The packages of packages/<name>/package.json, by their package names: the four published
  // ones and the private test kit of their tests.
  '^@outbox-inbox/(messaging|database|outbox|inbox|test-kit)$': '<rootDir>/packages/$1/src',
  // Their subpaths: the operator routes (`/http`), the contract suites (`/testing`), and the
  // terminus indicators and prom-client metrics (`/health`, `/metrics`).
  '^@outbox-inbox/(messaging|outbox|inbox)/(http|testing|health|metrics)$':
    '<rootDir>/packages/$1/src/$2',
  // The outbox's publisher on @confluentinc/kafka-javascript (librdkafka), an optional peer.
  '^@outbox-inbox/outbox/confluent$': '<rootDir>/packages/outbox/src/confluent',
  // The kit's operator step alone (scripts/kafka-access.ts, bundled without the kit's drivers).
  '^@outbox-inbox/test-kit/kafka-access$': '<rootDir>/packages/test-kit/src/kafka-access',
  // The database package's dialects, each loading its own driver.
  '^@outbox-inbox/database/(mysql|postgres)$': '<rootDir>/packages/database/src/$1',
};

const common = {
  rootDir: __dirname,
  transform: {
    '^.+\\.ts$': swc,
    [`/node_modules/(${esmOnly.join('|')})/.+\\.js$`]: swcEsm,
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper,
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  roots: [
    '<rootDir>/apps',
    '<rootDir>/libs',
    '<rootDir>/packages',
    '<rootDir>/test',
    '<rootDir>/scripts',
    '<rootDir>/bench',
  ],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.js',
      globalTeardown: '<rootDir>/test/global-teardown.js',
      slowTestThreshold: 30,
    },
  ],
  testTimeout: 60_000,
};
