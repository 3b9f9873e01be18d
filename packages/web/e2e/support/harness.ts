/**
 * One bt server and one Chromium for the whole browser run (startup is the slow part on a shared
 * machine); each flow opens its own browser contexts. Screenshots go to BT_SCREENSHOTS, default
 * test-results/web-e2e/ at the repository root.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../browser.js';
import { startBtServer, type RunningServer } from '../bt-server.js';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoDir = join(webDir, '..', '..');

export interface Harness {
  server: RunningServer;
  browser: Browser;
  /** The app's origin (the server serves packages/web/dist and /api/* together). */
  url: string;
  shotsDir: string;
  /**
   * A page in a fresh context (own storage), French locale; its page errors fail `close`. Pages
   * prefer reduced motion unless `animated`: the hexagon background's blurred animation, drawn
   * without a GPU, costs headless Chromium most of this shared machine's CPU (a run took 3 times
   * longer with it everywhere).
   */
  newPage(options?: { width?: number; height?: number; storageState?: BrowserContextOptions['storageState']; animated?: boolean }): Promise<TestPage>;
  shot(page: Page, name: string, fullPage?: boolean): Promise<void>;
  close(): Promise<void>;
}

export interface TestPage {
  page: Page;
  /** Closes the context; throws if the page raised an uncaught error meanwhile. */
  close(): Promise<void>;
}

function screenshotsDir(): string {
  const chosen = process.env.BT_SCREENSHOTS;
  const dir = chosen ?? join(repoDir, 'test-results', 'web-e2e');
  mkdirSync(dir, { recursive: true });
  // The default folder only holds this run's steps: this file's own (NN-step.png) are cleared, not
  // those the other e2e files wrote before it in the same run; a folder the caller names is left
  // as it is.
  if (!chosen) for (const file of readdirSync(dir)) if (/^\d{2}-.*\.png$/.test(file)) rmSync(join(dir, file));
  return dir;
}

export async function openHarness(): Promise<Harness> {
  const shotsDir = screenshotsDir();
  // Several flows sign in and register from the same address within a minute: the default
  // per-IP windows (10 logins/60 s, 5 registrations/h) are raised, not switched off.
  const server = await startBtServer(repoDir, { env: { RATE_LIMIT_LOGIN: '200/60', RATE_LIMIT_REGISTER: '200/3600' } });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    browser,
    url: server.url,
    shotsDir,
    async newPage({ width = 1280, height = 900, storageState, animated = false } = {}) {
      const context = await browser.newContext({
        viewport: { width, height },
        locale: 'fr-FR',
        acceptDownloads: true,
        storageState,
        reducedMotion: animated ? 'no-preference' : 'reduce',
      });
      const page = await context.newPage();
      const errors: Error[] = [];
      page.on('pageerror', (error) => errors.push(error));
      return {
        page,
        async close() {
          await context.close();
          if (errors.length) throw new Error(`uncaught errors in the page:\n${errors.map((e) => e.stack ?? e.message).join('\n')}`);
        },
      };
    },
    async shot(page, name, fullPage = true) {
      await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage });
    },
    async close() {
      await browser?.close().catch(() => undefined);
      await server.stop();
    },
  };
}
