// Run by dual-build.int-spec.ts in a real Node process, from a directory whose node_modules
// holds the packed @outbox-inbox packages: loads each entry point of each package by import()
// and by require() in the order argv[2] says (`import-first`, `require-first`, `import-only`,
// `require-only`) and prints, as JSON, what a user of both would meet.
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);
const order = process.argv[2];
const names = ['messaging', 'database', 'outbox', 'inbox'].map((p) => `@outbox-inbox/${p}`);
const manifests = names.map((name) => requireHere(`${name}/package.json`));
// Every entry point, the database dialects too (mysql2 and pg both resolve here).
const specifiers = manifests.flatMap((m) =>
  Object.keys(m.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => `${m.name}${subpath.slice(1)}`),
);

const byImport = async () =>
  Object.fromEntries(await Promise.all(specifiers.map(async (s) => [s, await import(s)])));
const byRequire = () => Object.fromEntries(specifiers.map((s) => [s, requireHere(s)]));

let imported;
let required;
if (order === 'import-first' || order === 'import-only') imported = await byImport();
if (order !== 'import-only') required = byRequire();
if (order === 'require-first') imported = await byImport();

/** The build each package registered: 'module' or 'commonjs'. */
const registered = Object.fromEntries(
  manifests.map((m) => [m.name, globalThis[Symbol.for(`${m.name}@${m.version}`)]?.format]),
);

/** Per entry point: how many names both loads share as the very same value, and which differ. */
const identity = {};
if (imported && required)
  for (const specifier of specifiers) {
    const keys = Object.keys(imported[specifier]).filter((k) => k !== 'default');
    identity[specifier] = {
      names: keys.length,
      differing: keys.filter((k) => imported[specifier][k] !== required[specifier][k]),
      missingFromRequire: keys.filter((k) => !(k in required[specifier])),
    };
  }

/**
 * A Nest module of one load serves an injection by the class of the other: OutboxModule as
 * imported, OutboxWriter as required (or the reverse), on a DataSource that is never opened.
 */
async function crossInjection(moduleFrom, classFrom) {
  const { NestFactory } = requireHere('@nestjs/core');
  const { Module } = requireHere('@nestjs/common');
  const { DataSource } = requireHere('typeorm');
  const { OutboxModule } = moduleFrom['@outbox-inbox/outbox'];
  const { OutboxWriter } = classFrom['@outbox-inbox/outbox'];
  const dataSource = new DataSource({ type: 'postgres', url: 'postgres://127.0.0.1:1/none' });
  class AppModule {}
  Module({
    imports: [
      OutboxModule.forRoot({
        kafka: { brokers: ['127.0.0.1:1'], clientId: 'dual-build-probe' },
        topicFor: (type) => `${type}.events`,
        relay: { enabled: false },
        retention: { enabled: false },
        dataSource,
      }),
    ],
  })(AppModule);
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    return { served: app.get(OutboxWriter) instanceof OutboxWriter };
  } catch (error) {
    return { served: false, error: String(error) };
  } finally {
    await app.close();
  }
}

const injection = {};
if (imported && required) {
  injection.importedModuleRequiredClass = await crossInjection(imported, required);
  injection.requiredModuleImportedClass = await crossInjection(required, imported);
} else {
  const only = imported ?? required;
  injection.alone = await crossInjection(only, only);
}

process.stdout.write(JSON.stringify({ order, registered, identity, injection }));
