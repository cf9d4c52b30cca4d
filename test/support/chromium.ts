import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package; CI installs it with apt (no browser downloads). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * A headless Chromium with a fresh profile; `close` removes the profile too. `httpCredentials`
 * answers a site's Basic challenge as a person typing them into the browser's prompt would.
 */
export async function launchChromium(
  options: { httpCredentials?: { username: string; password: string } } = {},
): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) to run the /ops page test`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'ops-page-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    httpCredentials: options.httpCredentials,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
