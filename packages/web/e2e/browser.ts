/** Debian Chromium through playwright-core, never a downloaded browser (docs/development.md). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.BT_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium's own pages that a headless browser still builds for every window: the address bar's
 * suggestion popup (two WebUI pages in a renderer of their own). Every browser context of a test
 * is a new window, and these pages took about 40 % of the CPU a context cost
 * (docs/development.md, "The browser's omnibox page").
 */
export const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/**
 * Started through a script that merges this list of disabled features with Playwright's own:
 * Chromium reads only the last --disable-features switch (e2e/chromium-merged-features.sh).
 */
const LAUNCHER = fileURLToPath(new URL('./chromium-merged-features.sh', import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run 'apt-get install -y chromium' (or set BT_CHROMIUM)`);
  return chromium.launch({ executablePath: LAUNCHER, env: { ...process.env, BT_CHROMIUM_BINARY: CHROMIUM }, args: CHROMIUM_ARGS, headless: true });
}
