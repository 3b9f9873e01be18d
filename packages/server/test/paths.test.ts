import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { BREAKOUT_PY, balance, funded, importStrategy, runBacktest } from './support/work.js';

let tdb: TestDatabase;
let t: TestApp;
let owner: Awaited<ReturnType<typeof funded>>;
let folder: string;
let strategyId: string;
const outside = join(tmpdir(), `bt-outside-${process.pid}`);
const SECRET = 'SECRET-OUTSIDE-THE-STORAGE-ROOT';

before(async () => {
  tdb = await openTestDatabase();
  t = await startTestApp(tdb.db, { library: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.csv'), `Datetime,Open,High,Low,Close,Volume\n${SECRET}\n`);
  owner = await funded(t, 10);
  const run = await runBacktest(t, owner.key, { strategy: 'englobante_entry' });
  folder = run.body.folder;
  strategyId = (await importStrategy(t, owner.key, BREAKOUT_PY)).body.strategy.id;
  await t.request('GET', '/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2023-01.csv', { key: owner.key });
  await t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=H1&start_date=2023-01-02&end_date=2023-01-06', { key: owner.key });
  // Links planted in the data directories, leading out of them.
  symlinkSync(outside, join(t.libraryDir, 'EURUSD', 'escape'));
  symlinkSync(join(outside, 'secret.csv'), join(t.libraryDir, 'EURUSD', 'H1', 'EURUSD_H1_2099-01.csv'));
  symlinkSync(outside, join(t.storageDir, 'results', String(owner.id), 'escape'));
  symlinkSync('/etc', join(t.storageDir, 'extractions', String(owner.id), 'etc'));
});
after(async () => {
  await t.close();
  await tdb.drop();
  rmSync(outside, { recursive: true, force: true });
});

/** Decoded forms of traversal attempts; each is sent raw in a path and encoded in a query. */
const ATTEMPTS: string[] = [
  '../../../../etc/passwd',
  '../../bt.sqlite',
  'EURUSD/H1/../../../files/results',
  'EURUSD/../../library/EURUSD/H1/EURUSD_H1_2023-01.csv',
  'live/../../results/1',
  'live/../EURUSD_H1_20230102_to_20230106.csv',
  '/etc/passwd',
  '//etc/passwd',
  '/../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'EURUSD\\H1\\EURUSD_H1_2023-01.csv',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  '\0',
  'EURUSD/H1/EURUSD_H1_2023-01.csv\0.txt',
  '..\0/etc/passwd',
  '....//....//etc/passwd',
  '..;/..;/etc/passwd',
  '.../.../etc/passwd',
  '.',
  '..',
  '~/.ssh/id_rsa',
  '$HOME/.bashrc',
  'file:///etc/passwd',
  'http://evil.example/x',
  'EURUSD/escape/secret.csv',
  'EURUSD/H1/EURUSD_H1_2099-01.csv',
  'escape/secret.csv',
  'live/etc/passwd',
  'EURUSD/H1/EURUSD_H1_2023-01.arrow',
  `${'../'.repeat(40)}etc/passwd`,
  '\u2025/\u2025/etc/passwd',
  '．．/．．/etc/passwd',
];

/** Encodings of each attempt in a path: as is (no normalisation), percent-encoded, double-encoded, mixed. */
function pathForms(value: string): string[] {
  const once = value.split('/').map(encodeURIComponent).join('/');
  const full = encodeURIComponent(value);
  const double = encodeURIComponent(full);
  const dots = once.replaceAll('..', '%2e%2e');
  const raw = /^[\x21-\x7e]*$/.test(value) ? [value] : [];
  return [...new Set([...raw, once, full, double, dots])];
}

function assertRefused(res: { status: number; text: string }, label: string) {
  assert.ok(res.status === 400 || res.status === 404, `${label} → ${res.status} ${res.text.slice(0, 120)}`);
  assert.ok(!res.text.includes(SECRET) && !res.text.includes('root:') && !res.text.includes('SQLite format'), `${label} leaked a file`);
}

describe(`path and folder parameters refuse traversal (${TEST_DIALECT})`, () => {
  it(`${ATTEMPTS.length} attempts, each in several encodings, on every path parameter`, async () => {
    assert.ok(ATTEMPTS.length >= 30);
    const routes: [string, (p: string) => string][] = [
      ['GET', (p) => `/api/download_csv_by_path/${p}`],
      ['GET', (p) => `/api/download_owned_csv_by_path/${p}`],
      ['DELETE', (p) => `/api/user/backtests/delete/${p}`],
      ['GET', (p) => `/api/download/${p}?folder=${encodeURIComponent(folder)}`],
      ['GET', (p) => `/api/user/strategies/${p}/download`],
      ['PATCH', (p) => `/api/user/strategies/${p}/rename`],
      ['PATCH', (p) => `/api/user/strategies/${p}/note`],
      ['DELETE', (p) => `/api/user/strategies/${p}`],
      ['GET', (p) => `/api/strategy_params/${p}`],
    ];
    let sent = 0;
    for (const [method, route] of routes) {
      for (const attempt of ATTEMPTS) {
        for (const form of pathForms(attempt)) {
          const res = await t.raw(method, route(form), { key: owner.key });
          assertRefused(res, `${method} ${route(form)}`);
          sent++;
        }
      }
    }
    assert.ok(sent > 30 * routes.length);
  });

  it('and on every folder query parameter, encoded and double-encoded', async () => {
    const routes: [string, (q: string) => string][] = [
      ['GET', (q) => `/api/user/backtests/xlsx/meta?folder=${q}`],
      ['GET', (q) => `/api/user/backtests/xlsx/sheet?folder=${q}&sheet=Config`],
      ['GET', (q) => `/api/public/xlsx/meta?folder=${q}`],
      ['GET', (q) => `/api/public/xlsx/sheet?folder=${q}&sheet=Config`],
      ['GET', (q) => `/api/download/${encodeURIComponent(`${folder}.xlsx`)}?folder=${q}`],
      ['GET', (q) => `/api/extract_to_output_live?symbol=${q}&timeframe=H1&start_date=2023-01-02&end_date=2023-01-03`],
      ['GET', (q) => `/api/extract_to_output_live?symbol=EURUSD&timeframe=${q}&start_date=2023-01-02&end_date=2023-01-03`],
      ['GET', (q) => `/api/extract_to_output_live?symbol=EURUSD&timeframe=H1&start_date=${q}&end_date=2023-01-03`],
    ];
    for (const [method, route] of routes) {
      for (const attempt of [...ATTEMPTS, `${folder}/../${folder}`, `../${owner.id}/${folder}`, `escape`, `${folder}/${folder}.xlsx`]) {
        for (const q of [encodeURIComponent(attempt), encodeURIComponent(encodeURIComponent(attempt))]) {
          const res = await t.raw(method, route(q), { key: owner.key });
          assertRefused(res, `${method} ${route(q)}`);
        }
      }
    }
    assert.equal(await balance(t, owner.id), 10 - 2 - 1 - 1, 'no refused request was charged');
  });

  it('a symlink planted in place of a stored file is refused (400) and nothing is charged', async () => {
    // The library file of an indexed month, replaced by a link leading out of the library.
    const indexed = join(t.libraryDir, 'EU50', 'M5', 'EU50_M5_2006-01.csv');
    unlinkSync(indexed);
    symlinkSync(join(outside, 'secret.csv'), indexed);
    const buyer = await funded(t, 1);
    const res = await t.request('GET', '/api/download_csv_by_path/EU50/M5/EU50_M5_2006-01.csv', { key: buyer.key });
    assert.deepEqual([res.status, res.body.detail], [400, 'Chemin de fichier invalide.']);
    assert.equal(await balance(t, buyer.id), 1);
    // A user's result folder and strategy file, replaced by links.
    const results = join(t.storageDir, 'results', String(owner.id));
    rmSync(join(results, folder), { recursive: true });
    mkdirSync(join(outside, folder), { recursive: true });
    writeFileSync(join(outside, folder, `${folder}.xlsx`), SECRET);
    symlinkSync(join(outside, folder), join(results, folder));
    for (const path of [`/api/user/backtests/xlsx/meta?folder=${folder}`, `/api/download/${folder}.xlsx?folder=${folder}`]) {
      const refused = await t.request('GET', path, { key: owner.key });
      assertRefused(refused, path);
      assert.equal(refused.status, 400);
    }
    const py = join(t.storageDir, 'strategies', String(owner.id), `${strategyId}.py`);
    unlinkSync(py);
    symlinkSync('/etc/passwd', py);
    const source = await t.request('GET', `/api/user/strategies/${strategyId}/download`, { key: owner.key });
    assertRefused(source, 'strategy download through a link');
  });
});
