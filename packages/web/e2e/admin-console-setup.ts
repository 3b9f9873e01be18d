/**
 * Seeding for e2e/admin-console.test.ts that the API cannot do: the heatmap needs backtests at
 * known weekdays and hours, so the real runs are copied (new ids, run ids and folders) and every
 * run is dated in the server's SQLite file; the console's reset and rebuild then turn them into
 * events. Also the admin's sign-in and the page checks every test of the file uses.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import sqlite3 from 'sqlite3';

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
