import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STRATEGIES } from '@bt/core/catalogue';
import { readWorkbookSheet } from '@bt/core/report';
import { startTestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { BREAKOUT_PY, balance, funded, importStrategy, ledgerRows, makeAdmin, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

const configOf = (rows: unknown[][]) => Object.fromEntries(rows.map(([k, v]) => [k, v]));

describe(`backtests (${TEST_DIALECT})`, () => {
  it('GET /api/list_strategies lists the 24 official strategies without a key, and the caller’s own with one', async () => {
    const res = await t.request('GET', '/api/list_strategies');
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 24);
    assert.deepEqual(res.body.strategies.map((s: { key: string }) => s.key), STRATEGIES.map((s) => s.key));
    const first = res.body.strategies[0];
    assert.equal(first.label, 'OB pullback pur');
    assert.ok(Array.isArray(first.params) && first.params.includes('min_wait_candles'));
    assert.equal(res.body.user_strategies, undefined);
    const user = await funded(t, 0);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY);
    const mine = await t.request('GET', '/api/list_strategies', { key: user.key });
    assert.deepEqual(mine.body.user_strategies.map((s: { id: string }) => s.id), [imported.body.strategy.id]);
  });

  it('GET /api/strategy_params/{strategy}: the signature as a list of names, defaults from the catalogue', async () => {
    const user = await funded(t, 0);
    const res = await t.request('GET', '/api/strategy_params/englobante_entry_rsi', { key: user.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.params, ['confirm_candle', 'time_key', 'rsi_key', 'rsi_threshold']);
    assert.equal(res.body.defaults.rsi_threshold, 50, 'the engulfing family reads 50 (docs/parameters.md)');
    const unknown = await t.request('GET', '/api/strategy_params/ob_pulback_pure', { key: user.key });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.detail, 'Stratégie inconnue : « ob_pulback_pure ».');
    const imported = await importStrategy(t, user.key, BREAKOUT_PY);
    const own = await t.request('GET', `/api/strategy_params/${imported.body.strategy.id}`, { key: user.key });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.params, ['lookback', 'min_body_pips', 'confirm_candle']);
    assert.equal(own.body.defaults.lookback, 12);
    const other = await funded(t, 0);
    const stranger = await t.request('GET', `/api/strategy_params/${imported.body.strategy.id}`, { key: other.key });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.detail, 'Stratégie introuvable.');
  });

  it('GET /api/pip answers the catalogue pip size', async () => {
    const res = await t.request('GET', '/api/pip?symbol=eur/usd');
    assert.deepEqual([res.status, res.body.symbol, res.body.pip], [200, 'EURUSD', 0.0001]);
    assert.equal((await t.request('GET', '/api/pip?symbol=USDJPY')).body.pip, 0.01);
    assert.equal((await t.request('GET', '/api/pip?symbol=XAUUSD')).body.pip, 0.1);
    const missing = await t.request('GET', '/api/pip');
    assert.deepEqual([missing.status, missing.body.detail], [400, 'Renseigne la paire (symbol).']);
    const unknown = await t.request('GET', '/api/pip?symbol=NOPE');
    assert.deepEqual([unknown.status, unknown.body.detail], [404, 'Symbole inconnu : « NOPE ».']);
  });

  it('POST /api/run_backtest runs core on official data, charges 2 credits under the run id and stores the workbook', async () => {
    const user = await funded(t, 5);
    const res = await runBacktest(t, user.key, { strategy: 'fvg_pullback_multi_rsi', params: { min_wait_candle: '2', RSI: 'RSI_14', nonsense: 1 } });
    assert.equal(res.status, 200, res.text);
    const folder = 'EURUSD_M15_fvg_pullback_multi_rsi_20230101-20230131_sl10';
    assert.equal(res.body.error, null);
    assert.equal(res.body.folder, folder);
    assert.equal(res.body.xlsx_result, `${folder}/${folder}.xlsx`);
    assert.equal(res.body.credits_remaining, 3);
    assert.equal(await balance(t, user.id), 3);
    assert.equal(res.body.params.min_wait_candles, 2, 'aliases and coercion come from core');
    assert.equal(res.body.params.rsi_key, 'RSI_14');
    assert.ok(res.body.warnings.some((w: string) => /^Paramètre inconnu « nonsense » ignoré/.test(w)), 'unknown parameters dropped with a warning (server mode)');
    assert.ok(res.body.summary.trades > 0);
    assert.ok(typeof res.body.golden_hours.winrate_global.TP1 === 'number');
    assert.equal(res.body.statistics.byHour.length, 24);
    assert.match(res.headers.get('server-timing') ?? '', /^total;dur=[\d.]+, load;dur=[\d.]+, charge;dur=[\d.]+, engine;dur=[\d.]+, report;dur=[\d.]+, store;dur=[\d.]+$/);

    const [spend] = (await ledgerRows(t, user.id)).filter((r) => r.kind === 'spend');
    assert.deepEqual([spend.reason, spend.amount, spend.reference], ['backtest', -2, res.body.run_id]);
    const bytes = await t.app.deps.storage.read(`results/${user.id}/${folder}/${folder}.xlsx`);
    const config = configOf((await readWorkbookSheet(bytes, 'Config', { limit: 500 })).rows);
    assert.equal(config.run_id, res.body.run_id);
    assert.equal(config.user_id, user.id);
    assert.equal(config.run_seq, 1);
    assert.equal(config.min_wait_candles, 2);
    const trades = await readWorkbookSheet(bytes, 'Trades', { limit: 1 });
    assert.equal(trades.total, res.body.summary.trades, 'the workbook holds the trades the answer counts');
  });

  it('a second identical run gets a folder of its own (suffix = run_seq); sl_pips 0 is the internal stop (_sl0)', async () => {
    const user = await funded(t, 10);
    const a = await runBacktest(t, user.key, { strategy: 'ob_pullback_pure' });
    const b = await runBacktest(t, user.key, { strategy: 'ob_pullback_pure' });
    assert.equal(a.body.folder, 'EURUSD_M15_ob_pullback_pure_20230101-20230131_sl10');
    assert.equal(b.body.folder, 'EURUSD_M15_ob_pullback_pure_20230101-20230131_sl10_2');
    const internal = await runBacktest(t, user.key, { strategy: 'englobante_entry', sl_pips: 0, tp1_pips: '', tp2_pips: '' });
    assert.equal(internal.status, 200, internal.text);
    assert.equal(internal.body.folder, 'EURUSD_M15_englobante_entry_20230101-20230131_sl0');
    assert.equal(internal.body.sl_mode, 'internal');
    assert.equal(await balance(t, user.id), 4);
  });

  it('refuses invalid requests with the spec’s French sentences, before charging anything', async () => {
    const user = await funded(t, 4);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ strategy: '' }, 400, 'Choisis une stratégie (officielle ou générée).'],
      [{ strategy: 'fvg_pulback_multi' }, 400, 'Stratégie inconnue : « fvg_pulback_multi » (voulais-tu dire fvg_pullback_multi ?).'],
      [{ symbol: 'NOPE' }, 400, 'Symbole inconnu : « NOPE ».'],
      [{ timeframe: 'M1' }, 400, 'Unité de temps non disponible pour les données officielles : « M1 » (H4, H1, M30, M15, M5).'],
      [{ timeframe: 'W1' }, 400, 'Unité de temps inconnue : « W1 » (M1, M5, M15, M30, H1, H4, D1).'],
      [{ start_date: '' }, 400, 'Renseigne la date de début et la date de fin.'],
      [{ start_date: '2023-02-30' }, 400, 'Date invalide : « 2023-02-30 » (format AAAA-MM-JJ).'],
      [{ start_date: '2023-02-01', end_date: '2023-01-01' }, 400, 'La date de début doit être ≤ à la date de fin.'],
      [{ start_date: '2023-01-01', end_date: '2023-02-01' }, 400, 'Période trop longue (32 jours). Maximum : 31 jours.'],
      [{ sl_pips: '' }, 400, 'Renseigne un stop-loss en pips (sl_pips > 0, ou 0 pour un SL interne).'],
      [{ tp1_pips: 0 }, 400, 'Renseigne un take-profit TP1 en pips (tp1_pips > 0).'],
      [{ tp2_pips: 5 }, 400, 'Le TP2 doit être supérieur ou égal au TP1.'],
      [{ sl_pips: 'dix' }, 400, `Valeur invalide pour sl_pips : « dix » (un nombre de pips de 0 à ${(1_000_000).toLocaleString('fr-FR')}).`],
      [{ params: { min_wait_candles: 30 } }, 400, 'Paramètre « min_wait_candles » invalide : 30 (attendu : au plus max_wait_candles (20)).'],
      [{ params: { rsi_threshold: 'haut' }, strategy: 'fvg_pullback_multi_rsi' }, 400, 'Paramètre « rsi_threshold » invalide : "haut" (attendu : un nombre).'],
      // The 'no data' answer names what the library holds instead (the basic test library).
      [{ start_date: '2019-01-01', end_date: '2019-01-31' }, 404, 'Aucune donnée officielle pour EURUSD M15 du 1er janvier 2019 au 31 janvier 2019. Données disponibles en M15 : du 9 octobre 2022 au 2 octobre 2023.'],
      [{ timeframe: 'H1', start_date: '2019-01-01', end_date: '2019-01-31' }, 404, 'Aucune donnée officielle pour EURUSD H1 du 1er janvier 2019 au 31 janvier 2019. Données disponibles en H1 : du 19 avril 2017 au 7 février 2018, puis du 9 octobre 2022 au 2 octobre 2023.'],
      [{ timeframe: 'M5' }, 404, 'Aucune donnée officielle pour EURUSD M5 du 1er janvier 2023 au 31 janvier 2023. Pas de données EURUSD dans cette unité de temps ; disponibles en M15, M30, H1, H4.'],
      [{ symbol: 'EU50', timeframe: 'M5' }, 404, 'Aucune donnée officielle pour EU50 M5 du 1er janvier 2023 au 31 janvier 2023. Données disponibles en M5 : du 2 janvier 2006 au 30 janvier 2006.'],
      [{ symbol: 'GBPUSD' }, 404, 'Aucune donnée officielle pour GBPUSD pour l’instant : la bibliothèque n’a encore aucun mois de cet instrument.'],
      [{ strategy: 'us_0123456789abcdef' }, 404, 'Stratégie introuvable.'],
    ];
    for (const [overrides, status, detail] of cases) {
      const res = await runBacktest(t, user.key, overrides);
      assert.deepEqual([res.status, res.body.detail], [status, detail], JSON.stringify(overrides));
    }
    assert.equal(await balance(t, user.id), 4);
    assert.equal((await ledgerRows(t, user.id)).length, 1, 'only the grant');
    const anonymous = await t.request('POST', '/api/run_backtest', { json: {} });
    assert.deepEqual([anonymous.status, anonymous.body.detail], [401, 'Non authentifié']);
  });

  it('refuses a text parameter too long for a column name before the charge (a 500 on MariaDB, and past Excel’s cell)', async () => {
    const user = await funded(t, 4);
    const euros = '€'.repeat(30_000); // about 90 KB once serialized: past the run row's TEXT on MySQL
    const expected = (name: string, shown: string) => `Paramètre « ${name} » invalide : "${shown}... (attendu : un texte de 256 caractères au plus).`;
    const cases: [Record<string, unknown>, string][] = [
      [{ params: { time_key: euros } }, expected('time_key', '€'.repeat(76))],
      [{ params: { Datetime: 'x'.repeat(40_000) } }, expected('time_key', 'x'.repeat(76))],
      [{ params: { rsi_key: 'R'.repeat(257) }, strategy: 'fvg_pullback_multi_rsi' }, expected('rsi_key', 'R'.repeat(76))],
      [{ params: JSON.stringify({ ob_side: 'b'.repeat(33_000) }), strategy: 'ob_pullback_pure' }, expected('ob_side', 'b'.repeat(76))],
    ];
    for (const [overrides, detail] of cases) {
      const res = await runBacktest(t, user.key, overrides);
      assert.deepEqual([res.status, res.body.detail], [400, detail], JSON.stringify(overrides).slice(0, 80));
    }
    assert.equal(await balance(t, user.id), 4);
    assert.equal((await ledgerRows(t, user.id)).length, 1, 'only the grant: no spend, no refund');
    assert.equal((await t.request('GET', '/api/user/backtests', { key: user.key })).body.total, 0);
    const longest = await runBacktest(t, user.key, { params: { time_key: 'T'.repeat(256) } });
    assert.equal(longest.status, 200, longest.text);
    assert.equal(longest.body.params.time_key, 'T'.repeat(256));
  });

  it('refuses parameters past 16 KB once serialized (the run row’s TEXT), before the charge', async () => {
    const user = await funded(t, 4);
    const names = Array.from({ length: 30 }, (_, i) => `p${i}`);
    const source = `PARAMS = {${names.map((n) => `"${n}": "a"`).join(', ')}}\n\ndef detect_wide(candles, params):\n    return []\n`;
    const imported = await importStrategy(t, user.key, source, 'wide.py');
    assert.equal(imported.status, 201, imported.text);
    // 30 texts at core's 256-character bound, each character a JSON escape (\u0001): about 46 KB.
    const params = Object.fromEntries(names.map((n) => [n, '\u0001'.repeat(256)]));
    const res = await runBacktest(t, user.key, { strategy: imported.body.strategy.id, params });
    assert.deepEqual([res.status, res.body.detail], [400, 'Champ « params » : paramètres trop volumineux (46 Ko une fois enregistrés, 16 Ko au plus).']);
    assert.equal(await balance(t, user.id), 4);
    assert.equal((await ledgerRows(t, user.id)).length, 1, 'only the grant');
    const fits = await runBacktest(t, user.key, { strategy: imported.body.strategy.id, params: { p0: 'é'.repeat(256) } });
    assert.equal(fits.status, 200, fits.text);
  });

  it('needs at least 2 credits (402), and admins may exceed 31 days', async () => {
    const poor = await funded(t, 1);
    const refused = await runBacktest(t, poor.key);
    assert.deepEqual([refused.status, refused.body.detail], [402, 'Crédits insuffisants : 2 crédits nécessaires, solde 1.']);
    const admin = await makeAdmin(t, 2);
    const long = await runBacktest(t, admin.key, { timeframe: 'H1', start_date: '2022-11-01', end_date: '2023-01-31' });
    assert.equal(long.status, 200, long.text);
    assert.equal(long.body.folder, 'EURUSD_H1_fvg_pullback_multi_20221101-20230131_sl10');
  });

  it('parallel backtests never overdraw: 5 credits, 6 parallel runs → 2 succeed, balance 1', async () => {
    const user = await funded(t, 5);
    const answers = await Promise.all(Array.from({ length: 6 }, () => runBacktest(t, user.key, { strategy: 'englobante_entry', timeframe: 'H1' })));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 200, 402, 402, 402, 402], answers.map((a) => a.text.slice(0, 80)).join('\n'));
    assert.equal(await balance(t, user.id), 1);
    const folders = answers.filter((a) => a.status === 200).map((a) => a.body.folder).sort();
    assert.equal(new Set(folders).size, 2, 'each run has its own folder');
  });

  it('a run that fails after the charge is refunded (spend and refund under the run id) and leaves no result', async () => {
    const user = await funded(t, 4);
    const failing = BREAKOUT_PY.replace('return out', 'return out if len(close) < 1000 else 1 / 0');
    const imported = await importStrategy(t, user.key, failing);
    assert.equal(imported.status, 201, imported.text);
    const res = await runBacktest(t, user.key, { strategy: imported.body.strategy.id });
    assert.equal(res.status, 400);
    const line = failing.split('\n').findIndex((l) => l.includes('1 / 0')) + 1;
    assert.equal(res.body.detail, `Erreur à l'exécution ligne ${line} : ZeroDivisionError: division by zero. Aucun crédit n’a été débité.`);
    assert.equal(await balance(t, user.id), 4);
    const rows = (await ledgerRows(t, user.id)).filter((r) => r.kind !== 'grant');
    assert.deepEqual(rows.map((r) => [r.kind, r.amount]), [['spend', -2], ['refund', 2]]);
    assert.equal(rows[0].reference, rows[1].reference);
    assert.equal((await t.request('GET', '/api/user/backtests', { key: user.key })).body.total, 0);
  });

  it('a personal strategy runs through the engine (signals from the sandbox, exits and statistics from core)', async () => {
    const user = await funded(t, 4);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py', { sl_mode: 'internal' });
    const id = imported.body.strategy.id;
    const res = await runBacktest(t, user.key, { strategy: id, sl_pips: '', tp1_pips: '', tp2_pips: '', params: { lookback: '20' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.sl_mode, 'internal', 'the strategy’s own sl_mode applies when the form sends no stop');
    assert.equal(res.body.folder, 'EURUSD_M15_breakout_20230101-20230131_sl0');
    assert.equal(res.body.params.lookback, 20, 'own parameters coerced to the type of their default');
    assert.equal(res.body.user_strategy_id, id);
    assert.ok(res.body.summary.trades > 10);
    assert.ok(res.body.timing.sandbox_ms > 0);
  });
});

describe(`custom file backtests (${TEST_DIALECT})`, () => {
  const upload = (key: string, file: Uint8Array | string, name: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    const defaults = { strategy: 'englobante_entry', sl_pips: '10', tp1_pips: '10', tp2_pips: '20', symbol: 'eurusd', timeframe: 'H1', params_json: '{}' };
    for (const [k, v] of Object.entries({ ...defaults, ...fields })) form.append(k, v);
    form.append('csv_file', new Blob([typeof file === 'string' ? new TextEncoder().encode(file) : file]), name);
    return t.request('POST', '/api/upload_csv_and_backtest', { key, form });
  };

  it('runs on an uploaded CSV (custom header) and XLSX, charging 2 credits each', async () => {
    const { fixture } = await import('./support/work.js');
    const user = await funded(t, 4);
    const csv = await upload(user.key, fixture('official/EURUSD_H1_custom-upload.csv'), 'eurusd.csv', { strategy: 'fvg_pullback_multi' });
    assert.equal(csv.status, 200, csv.text);
    assert.equal(csv.body.source, 'custom');
    assert.equal(csv.body.folder, 'EURUSD_H1_fvg_pullback_multi_20170419-20170421_sl10');
    const xlsx = await upload(user.key, fixture('official/EURUSD_H1_slice.xlsx'), 'slice.xlsx', { start_date: '2017-04-20', end_date: '2017-04-30' });
    assert.equal(xlsx.status, 200, xlsx.text);
    assert.equal(xlsx.body.folder, 'EURUSD_H1_englobante_entry_20170420-20170430_sl10');
    assert.equal(await balance(t, user.id), 0);
    const files = await t.request('GET', '/api/list_output_backtest_files', { key: user.key });
    assert.deepEqual(files.body.files.map((f: { folder: string }) => f.folder).sort(), [csv.body.folder, xlsx.body.folder].sort());
  });

  it('runs a personal strategy on a 5,000-candle upload, its sandbox request and answer on the engine threads', async () => {
    const { fixture } = await import('./support/work.js');
    const { THREAD_MIN_CANDLES } = await import('../src/strategies/sandbox/codec.js');
    const admin = await makeAdmin(t, 2);
    const imported = await importStrategy(t, admin.key, BREAKOUT_PY, 'cassure.py', { sl_mode: 'internal' });
    assert.equal(imported.status, 201, imported.text);
    const file = fixture('official/EURUSD_H1_2017-2018.csv');
    const candles = new TextDecoder().decode(file).trim().split('\n').length - 1;
    assert.ok(candles >= THREAD_MIN_CANDLES, `${candles} candles: a call the threads take (src/strategies/sandbox/codec.ts)`);
    const res = await upload(admin.key, file, 'eurusd.csv', { strategy: String(imported.body.strategy.id), sl_pips: '', tp1_pips: '', tp2_pips: '', start_date: '2017-04-19', end_date: '2018-02-07', params_json: '{"lookback": 20}' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.folder, 'EURUSD_H1_breakout_20170419-20180207_sl0');
    assert.equal(res.body.user_strategy_id, imported.body.strategy.id);
    assert.ok(res.body.summary.trades > 50, `${res.body.summary.trades} trades`);
    assert.ok(res.body.timing.sandbox_ms > 0);
    assert.equal(await balance(t, admin.id), 0);
  });

  it('refuses a bad file with its line numbers in French, and charges nothing', async () => {
    const { fixture } = await import('./support/work.js');
    const user = await funded(t, 2);
    const bad = await upload(user.key, fixture('bad/non-numeric.csv'), 'bad.csv');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, 'Fichier invalide : ligne 3, colonne Close : « abc » n\'est pas un nombre.');
    assert.deepEqual(bad.body.problems.map((p: { code: string; line: number }) => [p.code, p.line]), [['non_numeric', 3]]);
    const xlsx = await upload(user.key, fixture('bad/high-below-low.xlsx'), 'bad.xlsx');
    assert.equal(xlsx.status, 400);
    assert.match(xlsx.body.detail, /^Fichier invalide : rangée \d+, colonne High : le plus haut \(high\) est sous le plus bas \(low\)/);
    const mixed = await upload(user.key, fixture('bad/many-problems.csv'), 'many.csv');
    assert.equal(mixed.status, 400);
    assert.match(mixed.body.detail, /\(et \d+ autres problèmes\)\.$/);
    const cases: [Record<string, string>, Uint8Array | string, string, number, string][] = [
      [{}, 'x', 'notes.txt', 400, 'Format non pris en charge : choisis un fichier .csv ou .xlsx.'],
      [{}, '', 'empty.csv', 400, 'Fichier invalide : ligne 1 : le fichier est vide.'],
      [{ symbol: 'MYSTOCK' }, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', 400, 'Symbole hors catalogue (MYSTOCK) : indique la taille du pip (pip_size), par exemple 0.0001.'],
      [{ symbol: 'EUR USD!' }, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', 400, 'Symbole invalide : « EUR USD! » (lettres, chiffres, - ou . ; 32 caractères au plus).'],
      [{ timeframe: 'M15' }, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', 400, "Fichier invalide : ligne 3, colonne time : l'unité de temps des données ne correspond pas à celle choisie."],
      [{}, fixture('official/EURUSD_H1_2017-2018.csv'), 'all.csv', 400, 'Période trop longue (295 jours). Maximum : 31 jours.'],
      [{ start_date: '2020-01-01', end_date: '2020-01-05' }, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', 400, 'Aucune bougie du fichier entre le 2020-01-01 et le 2020-01-05.'],
      [{ params_json: JSON.stringify({ time_key: '€'.repeat(30_000) }) }, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', 400, `Paramètre « time_key » invalide : "${'€'.repeat(76)}... (attendu : un texte de 256 caractères au plus).`],
    ];
    for (const [fields, file, name, status, detail] of cases) {
      const res = await upload(user.key, file, name, fields);
      assert.deepEqual([res.status, res.body.detail], [status, detail], `${name} ${JSON.stringify(fields)}`);
    }
    const withPip = await upload(user.key, fixture('official/EURUSD_H1_custom-upload.csv'), 'a.csv', { symbol: 'MYSTOCK', pip_size: '0.0001' });
    assert.equal(withPip.status, 200, withPip.text);
    assert.equal(withPip.body.pip_size, 0.0001);
    assert.equal(await balance(t, user.id), 0);
  });

  it('answers 413 with a French sentence past the upload limit', async () => {
    const small = await startTestApp(t.db, { config: { uploadLimitBytes: 64 * 1024 } });
    try {
      const user = await funded(small, 2);
      const form = new FormData();
      form.append('strategy', 'englobante_entry');
      form.append('csv_file', new Blob([new Uint8Array(400 * 1024)]), 'big.csv');
      const res = await small.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
      assert.deepEqual([res.status, res.body.detail], [413, 'Fichier trop volumineux (64 Ko maximum).']);
      assert.equal(await balance(small, user.id), 2);
    } finally {
      await small.close();
    }
  });
});
