module.exports = async function globalTeardown() {
  await globalThis.__APACHE_KAFKA__?.stop();
  for (const container of globalThis.__TESTCONTAINERS__ ?? []) await container.stop();
};
