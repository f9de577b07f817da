import { after, before } from 'node:test';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startupDeadline } from './process-group.ts';

/** Debian's chromium (never downloaded); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A describe's `skip`: the reason, printed, when there is no Chromium. */
export const chromiumSkip: string | false = existsSync(CHROMIUM) ? false : `Chromium not found at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;

/**
 * How long Chromium may take to start (Playwright kills it and throws after that; Playwright also kills
 * the browsers it launched when the test process exits).
 */
export const LAUNCH_TIMEOUT = () => startupDeadline(60_000);

/** One headless Chromium for the tests of the describe this is called in. */
export function useChromium(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  before(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: LAUNCH_TIMEOUT(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(() => browser?.close());
  return {
    get browser() {
      return browser!;
    },
  };
}
