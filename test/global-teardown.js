module.exports = async function globalTeardown() {
  for (const container of globalThis.__TESTCONTAINERS__ ?? []) await container.stop();
};
