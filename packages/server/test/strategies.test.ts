import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { BREAKOUT_PY, balance, funded, importStrategy, ledgerRows, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

describe(`personal strategies (${TEST_DIALECT})`, () => {
  it('POST /api/user/strategies/import validates and stores a detect_<id> file without consuming credits', async () => {
    const user = await funded(t, 3);
    const res = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py', { sl_mode: 'external', comment_user: 'Ma première' });
    assert.equal(res.status, 201, res.text);
    const s = res.body.strategy;
    assert.match(s.id, /^us_[0-9a-f]{16}$/);
    assert.deepEqual(
      [s.display_name, s.display_filename, s.source, s.sl_mode, s.comment, s.comment_user, s.detect_function, s.entry_mode],
      ['Cassure simple', 'Cassure_simple.py', 'import', 'external', "Achat quand la clôture dépasse les N clôtures précédentes, vente à l'inverse.", 'Ma première', 'detect_breakout', 'signal'],
    );
    assert.ok(Number.isInteger(s.created_at) && s.created_at > 1_600_000_000, 'created_at in seconds');
    assert.deepEqual(s.meta.ui, { hidden: [], basic: ['lookback', 'min_body_pips'], advanced: ['confirm_candle'] });
    assert.deepEqual([s.meta.comment_user, s.meta.sl_mode], ['Ma première', 'external']);
    assert.equal(await balance(t, user.id), 3);
    assert.equal((await ledgerRows(t, user.id)).length, 1, 'only the grant: an import is free');

    const list = await t.request('GET', '/api/user/strategies', { key: user.key });
    assert.deepEqual(list.body.items.map((i: { id: string }) => i.id), [s.id]);
    const download = await t.request('GET', `/api/user/strategies/${s.id}/download`, { key: user.key });
    assert.equal(download.status, 200);
    assert.equal(download.text, BREAKOUT_PY);
    assert.equal(download.headers.get('content-disposition'), 'attachment; filename="Cassure_simple.py"');

    const renamed = await t.request('PATCH', `/api/user/strategies/${s.id}/rename`, { key: user.key, json: { display_name: ' Cassure européenne ' } });
    assert.deepEqual(renamed.body.strategy, { id: s.id, display_name: 'Cassure européenne', display_filename: 'Cassure_europeenne.py' });
    const noted = await t.request('PATCH', `/api/user/strategies/${s.id}/note`, { key: user.key, json: { comment_user: 'À tester sur H1' } });
    assert.equal(noted.status, 200);
    assert.equal(noted.body.meta.comment_user, 'À tester sur H1');
    for (const [path, json, detail] of [
      ['rename', { display_name: '  ' }, 'Nom invalide (1 à 120 caractères).'],
      ['rename', { display_name: 'x'.repeat(121) }, 'Nom invalide (1 à 120 caractères).'],
      ['note', { comment_user: 'x'.repeat(2001) }, 'Note trop longue (2000 caractères maximum).'],
    ] as const) {
      const refused = await t.request('PATCH', `/api/user/strategies/${s.id}/${path}`, { key: user.key, json });
      assert.deepEqual([refused.status, refused.body.detail], [400, detail]);
    }
    const deleted = await t.request('DELETE', `/api/user/strategies/${s.id}`, { key: user.key });
    assert.deepEqual([deleted.status, deleted.body.message], [200, 'Stratégie supprimée.']);
    assert.equal((await t.request('GET', `/api/user/strategies/${s.id}/download`, { key: user.key })).status, 404);
    const archived = await t.db.models.ArchivedStrategy.findAll({ where: { strategyId: s.id } });
    assert.equal(archived.length, 1, 'the archive keeps its copy after deletion');
    assert.equal(Buffer.from(await t.app.deps.storage.read(archived[0].path!)).toString(), BREAKOUT_PY);
  });

  it('refuses files that are not UTF-8 Python, too large, or without a valid sl_mode', async () => {
    const user = await funded(t, 0);
    const form = new FormData();
    form.append('note', 'rien');
    const none = await t.request('POST', '/api/user/strategies/import', { key: user.key, form });
    assert.deepEqual([none.status, none.body.detail], [400, 'Aucun fichier .py reçu.']);
    const cases: [string | Uint8Array, string, Record<string, string>, number, string][] = [
      [BREAKOUT_PY, 'strategie.txt', {}, 400, 'Le fichier doit être un script Python (.py).'],
      [new Uint8Array([0x23, 0x20, 0xe9, 0x74, 0xe9, 0x0a]), 'latin1.py', {}, 400, 'Le fichier doit être encodé en UTF-8.'],
      [BREAKOUT_PY, 'a.py', { sl_mode: 'both' }, 400, 'sl_mode invalide (internal ou external).'],
      ['#'.repeat(300 * 1024), 'big.py', {}, 413, 'Fichier trop volumineux (256 Ko maximum).'],
      ['PARAMS = [1]\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'PARAMS doit être un dictionnaire { "nom": valeur par défaut }.'],
      ['PARAMS = {"Bad-Name": 1}\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'PARAMS : nom de paramètre invalide « Bad-Name » (minuscules, chiffres et _, 40 caractères au plus).'],
      ['ENTRY_MODE = "scalp"\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'ENTRY_MODE doit valoir "signal" ou "pullback".'],
      ['FILTERS = ["macd"]\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'FILTERS : filtre inconnu « macd » (rsi, ema_simple, tendance_ema).'],
      ['PARAMS = {"rsi_threshold": 150}\nFILTERS = ["rsi"]\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'Paramètre « rsi_threshold » invalide : 150 (attendu : un nombre de 0 à 100).'],
      ['PARAMS = {"n": len("ab")}\ndef detect_x(candles, params):\n    return []\n', 'a.py', {}, 400, 'PARAMS ligne 1 doit être une valeur littérale (dictionnaire, liste, texte ou nombre).'],
    ];
    for (const [source, name, fields, status, detail] of cases) {
      const res = await importStrategy(t, user.key, source, name, fields);
      assert.deepEqual([res.status, res.body.detail], [status, detail], name + JSON.stringify(fields));
    }
    assert.equal((await t.request('GET', '/api/user/strategies', { key: user.key })).body.total, 0);
  });

  it('user B cannot list, read, download, rename, note, delete or run user A’s strategy (404)', async () => {
    const a = await funded(t, 0);
    const b = await funded(t, 4);
    const id = (await importStrategy(t, a.key, BREAKOUT_PY)).body.strategy.id;
    assert.deepEqual((await t.request('GET', '/api/user/strategies', { key: b.key })).body.items, []);
    const calls: [string, string, unknown][] = [
      ['GET', `/api/user/strategies/${id}/download`, undefined],
      ['PATCH', `/api/user/strategies/${id}/rename`, { display_name: 'volée' }],
      ['PATCH', `/api/user/strategies/${id}/note`, { comment_user: 'volée' }],
      ['DELETE', `/api/user/strategies/${id}`, undefined],
      ['GET', `/api/strategy_params/${id}`, undefined],
    ];
    for (const [method, path, json] of calls) {
      const res = await t.request(method, path, { key: b.key, json });
      assert.deepEqual([res.status, res.body.detail], [404, 'Stratégie introuvable.'], `${method} ${path}`);
    }
    const run = await runBacktest(t, b.key, { strategy: id });
    assert.deepEqual([run.status, run.body.detail], [404, 'Stratégie introuvable.']);
    assert.equal(await balance(t, b.id), 4);
    const still = await t.request('GET', `/api/user/strategies/${id}/download`, { key: a.key });
    assert.equal(still.status, 200);
    assert.equal((await t.request('GET', '/api/user/strategies')).status, 401);
  });

  it('refuses a detect_ name of 70,000 letters or 1,000 detect_ functions with a short detail, archived whole (a 500 on MariaDB)', async () => {
    const user = await funded(t, 0);
    const before = await archiveFiles(t);
    const name = `detect_${'a'.repeat(70_000)}`;
    const many = Array.from({ length: 1000 }, (_, i) => `def detect_${'b'.repeat(70)}${i}(candles, params):\n    return []\n`).join('\n');
    const names = Array.from({ length: 1000 }, (_, i) => `detect_${'b'.repeat(70)}${i}`).join(', ');
    const cases: [string, string][] = [
      [`def ${name}(candles, params):\n    return []\n`, `Nom de fonction invalide ligne 1 : « ${name.slice(0, 299)}… » (detect_ suivi de lettres, de chiffres et de _).`],
      [many, `Une seule fonction detect_<id> est attendue (trouvées : ${names.slice(0, 299)}…).`],
      [`async def ${name}(candles, params):\n    return []\n`, `La fonction ${name.slice(0, 299)}… ligne 1 doit prendre deux arguments : detect_<id>(candles, params).`],
    ];
    for (const [source, detail] of cases) {
      const res = await importStrategy(t, user.key, source, 'long.py');
      assert.deepEqual([res.status, res.body.detail], [400, detail], detail.slice(0, 60));
    }
    const rows = await t.db.models.ArchivedStrategy.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] });
    assert.deepEqual(rows.map((r) => [r.status, JSON.parse(r.meta!).error]), cases.map(([, detail]) => ['failed', detail]));
    const added = (await archiveFiles(t)).filter((f) => !before.includes(f));
    assert.deepEqual(added.sort(), rows.map((r) => r.path).sort(), 'each archived file has its row');
  });

  it('an archive row that cannot be written leaves no file behind', async () => {
    const user = await funded(t, 0);
    const before = await archiveFiles(t);
    // A row the database refuses (here a missing status; on MariaDB it was a meta past 64 KB).
    const entry = { type: 'import', strategyId: null, userId: user.id, displayName: 'x.py', slMode: null, status: null, filename: 'x.py', source: BREAKOUT_PY, meta: { provider: 'import', attempts: 1, generation_seconds: 0, openai_failures: 0, dry_run_failures: 1 } };
    await assert.rejects(t.app.services.archive.record(entry as unknown as Parameters<typeof t.app.services.archive.record>[0]));
    assert.deepEqual(await archiveFiles(t), before, 'no orphan file under archive/');
    assert.equal(await t.db.models.ArchivedStrategy.count({ where: { userId: user.id } }), 0);
  });

  it('archives every import with its outcome; the overview counts them', async () => {
    const user = await funded(t, 0);
    await importStrategy(t, user.key, 'import os\ndef detect_x(candles, params):\n    return []\n', 'bad.py');
    const overview = await t.app.services.archive.overview('import');
    const rows = await t.db.models.ArchivedStrategy.findAll({ where: { type: 'import' } });
    assert.equal(overview.total_archived, rows.length);
    assert.equal(overview.dry_run_failures, rows.filter((r) => r.status === 'failed').length);
    assert.equal(overview.avg_attempts, 1);
    assert.ok(overview.avg_generation_seconds! > 0);
    const failed = rows.find((r) => r.userId === user.id)!;
    assert.equal(failed.status, 'failed');
    assert.match(JSON.parse(failed.meta!).error, /^Import interdit ligne 1 : « os »/);
  });

  it('a file whose PARAMS give an engine parameter a default out of its bounds is refused and archived like any refusal', async () => {
    const user = await funded(t, 0);
    const res = await importStrategy(t, user.key, 'PARAMS = {"rsi_threshold": 200}\n\ndef detect_x(candles, params):\n    return []\n', 'seuil.py');
    const detail = 'Paramètre « rsi_threshold » invalide : 200 (attendu : un nombre de 0 à 100).';
    assert.deepEqual([res.status, res.body.detail], [400, detail]);
    const rows = await t.db.models.ArchivedStrategy.findAll({ where: { userId: user.id } });
    assert.deepEqual(rows.map((r) => [r.status, JSON.parse(r.meta!).error]), [['failed', detail]]);
  });
});

/** Every file under the storage's archive/ folder. */
async function archiveFiles(app: TestApp, folder = 'archive'): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await app.app.deps.storage.entries(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.type === 'dir') files.push(...(await archiveFiles(app, path)));
    else files.push(path);
  }
  return files;
}
