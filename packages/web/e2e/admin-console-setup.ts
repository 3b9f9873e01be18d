/**
 * What the admin console's browser tests share (e2e/admin-console.test.ts, e2e/admin-users.test.ts):
 * a real server on its own SQLite file with the local Stripe server of the server's tests, the
 * admin's key, three verified accounts and Alice's Stripe purchase, the admin's pages; and the
 * seeding the API cannot do, written in that SQLite file: backtests at known weekdays and hours
 * for the heatmap (the console's reset and rebuild then turn them into events), and accounts by
 * the hundred for the paged lists.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sqlite3 from 'sqlite3';
import { startStripeServer, type StripeServer } from '../../server/test/support/stripe-server.js';
import type { RunningServer } from './bt-server.js';
import { api, newUser, type Answer, type TestUser, useServerAndBrowser } from './work-area-support.js';

function all<T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
}
function exec(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (error) => (error ? reject(error) : resolve())));
}
/** Sequelize's SQLite date text. */
const sqliteDate = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', ' +00:00');

/** Where the runs are dated: days before today and a UTC hour, so the 7 × 24 cells are known. */
const SLOTS: [daysAgo: number, hour: number, count: number][] = [
  [2, 9, 5],
  [4, 14, 8],
  [9, 22, 6],
  [12, 0, 4],
];

/**
 * `count` accounts written straight into the database (the API would hash a password each): newest
 * last, 1 credit each with its ledger line (a bonus), named lot0001… so a search finds them.
 */
export async function seedAccounts(dbFile: string, count: number): Promise<void> {
  const db = new sqlite3.Database(dbFile);
  try {
    await exec(db, 'BEGIN');
    const now = Date.now() - count * 1000;
    for (let i = 1; i <= count; i++) {
      const name = `lot${String(i).padStart(4, '0')}`;
      const at = sqliteDate(now + i * 1000);
      await exec(db, "INSERT INTO users (username, email, first_name, last_name, credits, email_verified, created_at, updated_at) VALUES (?, ?, 'Lot', ?, 1, 1, ?, ?)", [name, `${name}@bt.test`, name, at, at]);
      await exec(db, "INSERT INTO credit_ledger (user_id, kind, reason, amount, balance_after, created_at) VALUES (last_insert_rowid(), 'grant', 'bonus', 1, 1, ?)", [at]);
    }
    await exec(db, 'COMMIT');
  } finally {
    db.close();
  }
}

/** `count` re-creation counters (`lot0001@bt.test`…), as that many deleted and re-created addresses leave. */
export async function seedRecreations(dbFile: string, count: number): Promise<void> {
  const db = new sqlite3.Database(dbFile);
  try {
    await exec(db, 'BEGIN');
    for (let i = 1; i <= count; i++) {
      await exec(db, 'INSERT INTO email_recreations (email, deletions, recreations, updated_at) VALUES (?, 1, 1, ?)', [`lot${String(i).padStart(4, '0')}@bt.test`, sqliteDate(Date.now() - i * 1000)]);
    }
    await exec(db, 'COMMIT');
  } finally {
    db.close();
  }
}

/** Copies the real runs up to the slots' 23 (new ids, run ids and folders), then dates every run in a slot. */
export async function seedDatedRuns(dbFile: string): Promise<{ grid: number[][]; runs: number }> {
  const db = new sqlite3.Database(dbFile);
  try {
    const columns = (await all<{ name: string }>(db, 'PRAGMA table_info(backtest_runs)')).map((c) => c.name).filter((c) => c !== 'id');
    const real = await all<{ id: number }>(db, "SELECT id FROM backtest_runs WHERE status = 'done' ORDER BY id");
    const copies = SLOTS.reduce((n, s) => n + s[2], 0) - real.length;
    for (let i = 0; i < copies; i++) {
      const source = real[i % real.length].id;
      const select = columns.map((c) => (c === 'run_id' ? `'e2e-copy-${i}-' || substr(run_id, 1, 20)` : c === 'folder' ? `folder || '_copie${i}'` : c)).join(', ');
      await exec(db, `INSERT INTO backtest_runs (${columns.join(', ')}) SELECT ${select} FROM backtest_runs WHERE id = ?`, [source]);
    }
    const ids = (await all<{ id: number }>(db, "SELECT id FROM backtest_runs WHERE status = 'done' ORDER BY id")).map((r) => r.id);
    const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    let next = 0;
    for (const [daysAgo, hour, count] of SLOTS) {
      for (let k = 0; k < count; k++) {
        const at = today - daysAgo * 86_400_000 + hour * 3_600_000 + k * 60_000;
        await exec(db, 'UPDATE backtest_runs SET created_at = ? WHERE id = ?', [sqliteDate(at), ids[next++]]);
        grid[(new Date(at).getUTCDay() + 6) % 7][hour] += 1;
      }
    }
    assert.equal(next, ids.length, 'every run is dated in a slot');
    return { grid, runs: ids.length };
  } finally {
    db.close();
  }
}

export async function adminLogin(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: email, password }) });
  const body = (await response.json()) as { token: string };
  assert.equal(response.status, 200);
  return body.token;
}

export async function fitsWidth(page: Page, width: number, where: string): Promise<void> {
  const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  const inner = (await page.evaluate('innerWidth')) as number;
  const wide = scroll <= inner ? [] : await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width}).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
  assert.ok(scroll <= inner, `${where}: ${scroll} px wide at ${inner} px: ${JSON.stringify(wide)}`);
}

/** A confirmation: cancelled first (nothing changes), then confirmed. */
export async function cancelThenConfirm(page: Page, open: () => Promise<void>, unchanged: () => Promise<void>): Promise<void> {
  await open();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await dialog.waitFor({ state: 'detached' });
  await unchanged();
  await open();
  await page.getByTestId('confirm-action').click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Text with its no-break spaces as plain spaces. */
export const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ').trim();

const stripeKeys = { secretKey: 'sk_test_admin_e2e_0123', webhookSecret: 'whsec_admin_e2e_0123' };

export interface AdminConsole {
  running: { server: RunningServer; browser: Browser };
  /** The server's SQLite file (for the seeding above). */
  dbFile: string;
  seeded: { adminKey: string; alice: TestUser; bruno: TestUser; carla: TestUser };
  adminApi(method: string, path: string, json?: unknown): Promise<Answer>;
  pageAs(key: string, path: string, width?: number): Promise<Page>;
  adminPage(tab: string, width?: number): Promise<Page>;
}

/**
 * The file's server and browser, seeded with the admin's key, Alice (20 credits), Bruno and Carla
 * (verified) and Alice's purchase through Stripe (its webhook); then `seed`, the file's own.
 */
export function useAdminConsole(seed: (admin: AdminConsole) => Promise<void>): AdminConsole {
  let stripe: StripeServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'bt-admin-e2e-'));
  const admin = { dbFile: join(dataDir, 'bt.sqlite'), seeded: {} } as AdminConsole;
  admin.running = useServerAndBrowser(
    async ({ server }) => {
      stripe.setWebhook(`${server.url}/api/payment/stripe/webhook`);
      const seeded = admin.seeded;
      seeded.adminKey = await adminLogin(server.url, server.admin.email, server.admin.password);
      seeded.alice = await newUser(server, { verified: true, credits: 20, first: 'Alice' });
      seeded.bruno = await newUser(server, { verified: true, first: 'Bruno' });
      seeded.carla = await newUser(server, { verified: true, first: 'Carla' });
      const session = await api(server, 'POST', '/api/payment/stripe/session', { key: seeded.alice.key, json: { offer_id: 'CREDIT_10' } });
      assert.equal(session.status, 200, JSON.stringify(session.body));
      await stripe.complete(session.body.id);
      await stripe.settle();
      await seed(admin);
    },
    async () => {
      stripe = await startStripeServer(stripeKeys);
      return {
        env: {
          DATABASE_URL: `sqlite:${admin.dbFile}`,
          STRIPE_SECRET_KEY: stripeKeys.secretKey,
          STRIPE_WEBHOOK_SECRET: stripeKeys.webhookSecret,
          STRIPE_API_BASE: stripe.base,
          SELLER_NAME: 'bt SAS',
          SELLER_ADDRESS: '12 rue des Bougies|75002 Paris',
        },
      };
    },
  );
  after(async () => {
    await stripe?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  admin.adminApi = (method, path, json) => api(admin.running.server, method, path, { key: admin.seeded.adminKey, json });
  // Preferring reduced motion: the animated hexagon background, drawn without a GPU, costs
  // headless Chromium most of a shared machine's CPU (e2e/support/harness.ts).
  admin.pageAs = async (key, path, width = 1440) => {
    const context = await admin.running.browser.newContext({ viewport: { width, height: 900 }, locale: 'fr-FR', acceptDownloads: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    // The key given in the address, as signedInPage does.
    const url = new URL(path, admin.running.server.url);
    url.searchParams.set('apiKey', key);
    await page.goto(url.toString());
    await page.waitForURL((u) => !u.searchParams.has('apiKey'));
    return page;
  };
  admin.adminPage = async (tab, width = 1440) => {
    const page = await admin.pageAs(admin.seeded.adminKey, `/admin?tab=${tab}`, width);
    await page.getByTestId(`admin-${tab}`).waitFor();
    return page;
  };
  return admin;
}
