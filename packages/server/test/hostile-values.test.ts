// Hostile values the route sweep (test/hostile-routes.test.ts) cannot judge: it only sees that no
// answer is a 5xx, with one value of each kind per body. Here, each with the defect it found:
// bodies nested thousands deep, numbers in notations no form means, a stop the result folder
// cannot name, lists where one value goes (JSON, url-encoded, multipart), parameters of the wrong
// shape or of giant size, inputs that cost quadratic time or unbounded memory, texts counted in
// characters, names carrying control characters, files gone under their rows, other letter cases,
// dates of the years 0 to 99; each refused with its own French 4xx and nothing charged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { STRATEGY_KEYS } from '@bt/core/catalogue';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/app/json-depth.js';
import { BACKTEST_MESSAGES, decimalOf } from '../src/backtests/request.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes } from './support/hostile-sweep.js';
import { entriesIterated, longestRegexInput } from './support/work-counts.js';
import { BREAKOUT_PY, FIXTURES, OFFICIAL_RUN, balance, funded, importStrategy, runBacktest } from './support/work.js';

// A low public bar so that one month of real data gives a public result (the public workbook case).
const t = useTestApp({ library: true, config: { topMinTrades: 10 } });

/** JSON text of `base` with `field` holding `raw` as written (a value JSON.stringify could not make). */
const withRaw = (base: Record<string, unknown>, field: string, raw: string) => JSON.stringify({ ...base, [field]: '__RAW__' }).replace('"__RAW__"', raw);
const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
const postRaw = (path: string, key: string | undefined, body: string, method = 'POST') => t.request(method, path, { key, body, headers: { 'content-type': 'application/json' } });

const BODY_TOO_DEEP = `Corps de requête invalide : données imbriquées sur plus de ${MAX_JSON_DEPTH} niveaux.`;
const PIPS = (field: string, value: string) => BACKTEST_MESSAGES.badPips(field, value);
const ONE_VALUE = (field: string) => `Champ « ${field} » : une seule valeur attendue (pas une liste ni un objet).`;

describe('the depth and number helpers', () => {
  it('nestsDeeperThan walks a million levels without recursion; decimalOf reads decimal notation only', async () => {
    assert.equal(nestsDeeperThan({ a: [1, { b: 2 }] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [1, { b: [] }] }, 3), true);
    assert.equal(nestsDeeperThan(JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000))), true);
    assert.equal(nestsDeeperThan('[[[['), false, 'text is not nesting');
    for (const [text, value] of [['12', 12], [' 1,5 ', 1.5], ['-0.25', -0.25], ['.5', 0.5], ['1e3', 1000], ['7.', 7]] as const) assert.equal(decimalOf(text), value, text);
    for (const text of ['0x10', '0b11', '0o7', 'Infinity', '-Infinity', 'NaN', '', ' ', '1_000', '1 000', '１２', '1,5,2', '--1', '1e', 'e3']) assert.ok(Number.isNaN(decimalOf(text)), text);
    // One way to match each text, and a bound on its length: `\d+\.?\d*` took 6 s on 30,000 digits and an x.
    for (const text of ['1'.repeat(30_000) + 'x', '1'.repeat(20_000_000)]) {
      const { result, longest } = await longestRegexInput(() => decimalOf(text));
      assert.ok(Number.isNaN(result));
      assert.ok(longest < 100, `a regular expression ran on ${longest} characters: the length check comes first`);
    }
    for (const text of ['1'.repeat(60) + 'x', '1'.repeat(20) + '.' + '1'.repeat(20) + 'x']) {
      const { result, longest } = await longestRegexInput(() => decimalOf(text));
      assert.deepEqual([Number.isNaN(result), longest], [true, text.length], 'a short text is matched');
    }
  });
});

describe(`hostile values on the working-area routes (${TEST_DIALECT})`, () => {
  it('a body nested 10,000 deep is a 400 on every JSON route, before its fields are read (it was a 500 at the first message quoting it)', async () => {
    const user = await funded(t, 10);
    for (const field of ['sl_pips', 'tp1_pips', 'spread_pips', 'spread_point_size', 'spread_from_data', 'account_currency', 'params', 'sl_mode']) {
      for (const raw of [DEEP_ARRAY, DEEP_OBJECT]) {
        const res = await postRaw('/api/run_backtest', user.key, withRaw(OFFICIAL_RUN, field, raw));
        assert.deepEqual([res.status, res.body?.detail], [400, BODY_TOO_DEEP], `${field}: ${res.text.slice(0, 200)}`);
      }
    }
    const hours = await postRaw('/api/run_backtest', user.key, withRaw(OFFICIAL_RUN, 'spread_by_hour', `[${DEEP_ARRAY}${',1'.repeat(23)}]`));
    assert.deepEqual([hours.status, hours.body.detail], [400, BODY_TOO_DEEP]);
    for (const body of [`{"analysis_ids":[${DEEP_ARRAY}]}`, `{"analysis_ids":${DEEP_ARRAY}}`, `{"analysis_ids":[1],"metric":${DEEP_ARRAY}}`]) {
      const res = await postRaw('/api/compare/data', user.key, body);
      assert.deepEqual([res.status, res.body.detail], [400, BODY_TOO_DEEP], body.slice(0, 40));
    }
    const support = await postRaw('/api/support', undefined, withRaw({ type: 'contact', firstName: 'A', lastName: 'B', email: 'a@b.c', message: 'Bonjour' }, 'meta', DEEP_OBJECT));
    assert.deepEqual([support.status, support.body.detail], [400, BODY_TOO_DEEP]);
    // 32 levels are still read as the route reads them.
    const shallow = await postRaw('/api/compare/data', user.key, `{"analysis_ids":[1],"metric":${'['.repeat(31)}${']'.repeat(31)}}`);
    assert.deepEqual([shallow.status, shallow.body.detail], [400, ONE_VALUE('metric')]);
    // JSON as text (the upload form's params_json) is measured too, and named.
    for (const params of [DEEP_ARRAY, `{"min_wait_candles":${DEEP_ARRAY}}`]) {
      const res = await runBacktest(t, user.key, { params_json: params });
      assert.deepEqual([res.status, res.body.detail], [400, `Champ « params » : données imbriquées sur plus de ${MAX_JSON_DEPTH} niveaux.`]);
    }
    assert.equal(await balance(t, user.id), 10, 'nothing charged');
  });

  it('numbers: hexadecimal, binary, octal and Infinity are not pips, costs or pip sizes (0x10 ran a 16-pip stop)', async () => {
    const user = await funded(t, 10);
    for (const [field, value] of [['sl_pips', '0x10'], ['tp1_pips', '0b1010'], ['tp2_pips', '0o77'], ['sl_pips', 'Infinity']]) {
      const res = await runBacktest(t, user.key, { [field]: value });
      assert.deepEqual([res.status, res.body.detail], [400, PIPS(field, value)]);
    }
    for (const field of ['spread_pips', 'commission_pips', 'slippage_pips']) {
      const res = await runBacktest(t, user.key, { [field]: '0x1' });
      assert.deepEqual([res.status, res.body.detail], [400, `Valeur invalide pour ${field} : « 0x1 » (un nombre entre 0 et 1 000).`]);
    }
    const hours = await runBacktest(t, user.key, { spread_by_hour: [...Array(23).fill('1'), '0x2'] });
    assert.deepEqual([hours.status, hours.body.detail], [400, 'Valeur invalide pour spread_by_hour (heure 23) : « 0x2 » (un nombre de pips entre 0 et 1 000).']);
    const pip = await upload(user.key, goodCsv(), 'x.csv', { symbol: 'MYSTOCK', pip_size: '0x10' });
    assert.deepEqual([pip.status, pip.body.detail], [400, 'Taille de pip invalide : « 0x10 » (un nombre de 0,000000001 à 10 000).']);
    // Out of the range levels can be rounded to (core's PIP_SIZE_MIN..MAX): 1e5 ran with every trade open, 1e-300 with every trade lost.
    for (const value of ['1e5', '1e-300', '10000.5']) {
      const res = await upload(user.key, goodCsv(), 'x.csv', { symbol: 'MYSTOCK', pip_size: value });
      assert.deepEqual([res.status, res.body.detail], [400, `Taille de pip invalide : « ${value} » (un nombre de 0,000000001 à 10 000).`], value);
    }
    // Decimal notation, a decimal comma and spaces around still read as before.
    const comma = await runBacktest(t, user.key, { sl_pips: ' 10,5 ', tp1_pips: '1e1', tp2_pips: '20' });
    assert.equal(comma.status, 200, comma.text);
    assert.equal(comma.body.sl_pips, 10.5);
    assert.equal(await balance(t, user.id), 8);
  });

  it('an external stop its result folder cannot name (under 0.0001 pip, or 1,000,000 pips) is a 400 before the charge, not a 500', async () => {
    const user = await funded(t, 10);
    for (const sl of [0.00001, 0.00004, 1_000_000, '1000000']) {
      const res = await runBacktest(t, user.key, { sl_pips: sl, tp1_pips: 1_000_000, tp2_pips: 1_000_000 });
      assert.deepEqual([res.status, res.body.detail], [400, `Valeur invalide pour sl_pips : « ${sl} » (un stop externe de 0,0001 à moins de 1 000 000 pips, ou 0 pour un SL interne).`]);
    }
    const upl = await upload(user.key, goodCsv(), 'x.csv', { sl_pips: '1000000', tp1_pips: '1000000', tp2_pips: '1000000' });
    assert.equal(upl.status, 400, upl.text);
    assert.equal(await balance(t, user.id), 10, 'nothing charged');
    const smallest = await runBacktest(t, user.key, { sl_pips: 0.0001 });
    assert.equal(smallest.status, 200, smallest.text);
    assert.match(smallest.body.folder, /_sl0\.0001$/);
  });

  it('one value per field: sl_mode, the cost fields and the comparator’s metric refuse a list; a number is not a mode', async () => {
    const user = await funded(t, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ sl_mode: ['internal'] }, ONE_VALUE('sl_mode')],
      [{ sl_mode: { internal: true } }, ONE_VALUE('sl_mode')],
      [{ sl_mode: 5 }, 'sl_mode invalide (internal ou external).'],
      [{ spread_pips: [1, 2] }, ONE_VALUE('spread_pips')],
      [{ commission_per_lot: [7], account_currency: 'USD' }, ONE_VALUE('commission_per_lot')],
      [{ account_currency: ['USD'] }, ONE_VALUE('account_currency')],
      [{ spread_from_data: [true] }, ONE_VALUE('spread_from_data')],
    ];
    for (const [fields, detail] of cases) {
      const res = await runBacktest(t, user.key, fields);
      assert.deepEqual([res.status, res.body.detail], [400, detail], JSON.stringify(fields));
    }
    const gpt = await t.request('POST', '/api/gpt/generate-strategy', { key: user.key, json: { prompt: 'Achat quand le RSI passe sous 30', sl_mode: ['internal'] } });
    assert.deepEqual([gpt.status, gpt.body.detail], [400, ONE_VALUE('sl_mode')]);
    assert.equal(await balance(t, user.id), 10);

    const run = await runBacktest(t, user.key);
    assert.equal(run.status, 200, run.text);
    const [analysis] = (await t.request('GET', '/api/compare/options', { key: user.key })).body.items;
    const compare = (json: unknown) => t.request('POST', '/api/compare/data', { key: user.key, json });
    assert.deepEqual((await compare({ analysis_ids: [analysis.id], metric: ['session'] })).body.detail, ONE_VALUE('metric'));
    // An id is a whole number or its text; a list inside the list, hexadecimal or exponent text is no analysis.
    for (const id of [[analysis.id], { id: analysis.id }, `0x${analysis.id.toString(16)}`, `${analysis.id}e0`, true]) {
      const res = await compare({ analysis_ids: [id] });
      assert.deepEqual([res.status, res.body.detail], [404, 'Analyse introuvable.'], JSON.stringify(id));
    }
    for (const ids of [[analysis.id], [` ${analysis.id} `], String(analysis.id)]) {
      const res = await compare({ analysis_ids: ids, metric: ' session ' });
      assert.deepEqual([res.status, res.body.series.length], [200, 1], JSON.stringify(ids));
    }
  });

  it('GET /api/my_recent_extractions: a limit that is not a whole number from 1 to 50 is a 400 (1.5 reached SQL’s LIMIT: a 500)', async () => {
    const user = await funded(t, 0);
    for (const limit of ['1.5', '0', '51', '-1', 'abc', '1e1', '0x10', 'NaN']) {
      const res = await t.request('GET', `/api/my_recent_extractions?limit=${limit}`, { key: user.key });
      assert.deepEqual([res.status, res.body.detail], [400, 'Limite invalide : un nombre entier de 1 à 50.'], limit);
    }
    const twice = await t.request('GET', '/api/my_recent_extractions?limit=3&limit=4', { key: user.key });
    assert.deepEqual([twice.status, twice.body.detail], [400, ONE_VALUE('limit')]);
    for (const query of ['', '?limit=', '?limit=%2050%20', '?limit=1']) {
      const res = await t.request('GET', `/api/my_recent_extractions${query}`, { key: user.key });
      assert.deepEqual([res.status, res.body], [200, { files: [] }], query);
    }
  });

  it('a personal strategy’s params must be an object as an official one’s (JSON text null was a 500, 5 and [1] were dropped)', async () => {
    const user = await funded(t, 10);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(imported.status, 201, imported.text);
    const strategy = imported.body.id;
    for (const params of ['5', '[1]', 'true']) {
      const res = await runBacktest(t, user.key, { strategy, params_json: params });
      assert.equal(res.status, 400, `${params}: ${res.text}`);
      assert.match(res.body.detail, /^Paramètre « params » invalide : .* \(attendu : un objet \{ nom: valeur \}\)\.$/);
      const official = await runBacktest(t, user.key, { params_json: params });
      assert.deepEqual([official.status, official.body.detail], [400, res.body.detail], 'as an official strategy');
    }
    const nested = await runBacktest(t, user.key, { strategy, params: [{ lookback: 3 }] });
    assert.equal(nested.status, 400, nested.text);
    assert.equal(await balance(t, user.id), 10, 'nothing charged');
    // No parameter at all (JSON null, empty text) is the defaults, as for an official strategy.
    for (const params of ['null', '', '  ']) {
      const res = await runBacktest(t, user.key, { strategy, params_json: params });
      assert.equal(res.status, 200, `${JSON.stringify(params)}: ${res.text}`);
      assert.equal(res.body.params.lookback, 12);
    }
  });

  it('an empty file with a name is read and refused as empty; a form part without a file is "no file"', async () => {
    const user = await funded(t, 10);
    const empty = await upload(user.key, '', 'vide.csv');
    assert.equal(empty.status, 400, empty.text);
    assert.match(empty.body.detail, /^Fichier invalide : ligne 1 : le fichier est vide/);
    const form = new FormData();
    for (const [k, v] of Object.entries(UPLOAD_FIELDS)) form.append(k, v);
    // What a browser sends when no file was chosen: an empty part with an empty file name.
    form.append('csv_file', new Blob([]), '');
    const none = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
    assert.deepEqual([none.status, none.body.detail], [400, 'Aucun fichier CSV sélectionné']);
    assert.equal(await balance(t, user.id), 10);
  });
});

describe(`texts, names, files, letter case and bounds of time and memory (${TEST_DIALECT})`, () => {
  it('names, notes, prompts and support fields are counted in characters, not UTF-16 units (61 emoji were "more than 120")', async () => {
    const user = await funded(t, 0);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py', { comment_user: '🙂'.repeat(2000) });
    assert.equal(imported.status, 201, imported.text);
    const id = imported.body.id;
    const rename = (name: string) => t.request('PATCH', `/api/user/strategies/${id}/rename`, { key: user.key, json: { display_name: name } });
    const renamed = await rename('🙂'.repeat(120));
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await t.request('GET', '/api/user/strategies', { key: user.key })).body.items[0].display_name, '🙂'.repeat(120), 'stored whole');
    assert.deepEqual((await rename('🙂'.repeat(121))).body.detail, 'Nom invalide (1 à 120 caractères).');
    const note = (comment_user: string) => t.request('PATCH', `/api/user/strategies/${id}/note`, { key: user.key, json: { comment_user } });
    assert.equal((await note('𝄞'.repeat(2000))).status, 200);
    assert.deepEqual((await note('𝄞'.repeat(2001))).body.detail, 'Note trop longue (2000 caractères maximum).');
    const support = (fields: Record<string, string>) => t.request('POST', '/api/support', { json: { type: 'contact', firstName: 'A', lastName: 'B', email: 'a@b.c', message: 'Bonjour', ...fields } });
    assert.equal((await support({ firstName: '🙂'.repeat(100), lastName: '🙂'.repeat(100), message: '🙂'.repeat(5000) })).status, 201);
    assert.deepEqual((await support({ firstName: '🙂'.repeat(101) })).body.detail, 'Prénom trop long (100 caractères maximum).');
    assert.deepEqual((await support({ message: '🙂'.repeat(5001) })).body.detail, 'Message trop long (5000 caractères maximum).');
    const gpt = await t.request('POST', '/api/gpt/generate-strategy', { key: user.key, json: { prompt: '🙂'.repeat(4001) } });
    assert.deepEqual([gpt.status, gpt.body.detail], [400, 'Description trop longue (4000 caractères maximum).']);
  });

  it('a CSV whose lines end with CR alone is refused in French (core’s new code reached the form in English)', async () => {
    const user = await funded(t, 2);
    const res = await upload(user.key, readFileSync(FIXTURES + 'bad/cr-line-ends.csv', 'utf8'), 'mac.csv');
    assert.deepEqual([res.status, res.body.problems?.[0]?.code], [400, 'cr_line_ends'], res.text);
    assert.equal(res.body.detail, 'Fichier invalide : ligne 1 : les lignes se terminent par un retour chariot seul (CR, ancien format Mac) : enregistre le fichier avec des fins de ligne Unix (LF) ou Windows (CRLF), par exemple en « CSV UTF-8 » depuis Excel.');
    assert.equal(await balance(t, user.id), 2);
  });

  it('multipart: two files under one name and a repeated field are refused by name (the second file, the first value were dropped)', async () => {
    const user = await funded(t, 4);
    const twoFiles = new FormData();
    for (const [k, v] of Object.entries(UPLOAD_FIELDS)) twoFiles.append(k, v);
    twoFiles.append('csv_file', new Blob([goodCsv()]), 'a.csv');
    twoFiles.append('csv_file', new Blob(['time,open\n']), 'b.csv');
    const upl = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: twoFiles });
    assert.deepEqual([upl.status, upl.body.detail], [400, 'Champ « csv_file » : un seul fichier attendu.']);
    const twoPy = new FormData();
    twoPy.append('file', new Blob([BREAKOUT_PY]), 'a.py');
    twoPy.append('file', new Blob([BREAKOUT_PY]), 'b.py');
    const imp = await t.request('POST', '/api/user/strategies/import', { key: user.key, form: twoPy });
    assert.deepEqual([imp.status, imp.body.detail], [400, 'Champ « file » : un seul fichier attendu.']);
    for (const field of ['symbol', 'sl_pips', 'strategy']) {
      const form = new FormData();
      for (const [k, v] of Object.entries(UPLOAD_FIELDS)) form.append(k, v);
      form.append(field, (UPLOAD_FIELDS as Record<string, string>)[field]);
      form.append('csv_file', new Blob([goodCsv()]), 'a.csv');
      const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
      assert.deepEqual([res.status, res.body.detail], [400, ONE_VALUE(field)], field);
    }
    // The same in a url-encoded form and in JSON (docs/api.md's example).
    const encoded = new URLSearchParams({ ...OFFICIAL_RUN, sl_pips: '10' } as unknown as Record<string, string>);
    encoded.append('sl_pips', '20');
    const form = await t.request('POST', '/api/run_backtest', { key: user.key, body: encoded.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.deepEqual([form.status, form.body.detail], [400, ONE_VALUE('sl_pips')]);
    const json = await runBacktest(t, user.key, { sl_pips: [10] });
    assert.deepEqual([json.status, json.body.detail], [400, ONE_VALUE('sl_pips')]);
    assert.equal(await balance(t, user.id), 4);
  });

  it('a strategy’s name from a file name, a NAME constant or a rename keeps no control or bidirectional character (NUL, CR/LF, ESC, U+202E were stored and listed)', async () => {
    const user = await funded(t, 0);
    const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    const noName = BREAKOUT_PY.replace(/^NAME = .*$/m, '');
    const fromFile = await importStrategy(t, user.key, noName, 'a\u0000b\r\n\u001b[31mc\u202e.py');
    assert.equal(fromFile.status, 201, fromFile.text);
    assert.equal(fromFile.body.strategy.display_name, 'a b [31mc');
    const fromConstant = await importStrategy(t, user.key, BREAKOUT_PY.replace('NAME = "Cassure simple"', 'NAME = "Cassure\\tsimple\\u202e\\x1b]0;titre\\x07"'), 'x.py');
    assert.equal(fromConstant.status, 201, fromConstant.text);
    assert.equal(fromConstant.body.strategy.display_name, 'Cassure simple ]0;titre');
    const rename = (display_name: string) => t.request('PATCH', `/api/user/strategies/${fromFile.body.id}/rename`, { key: user.key, json: { display_name } });
    assert.equal((await rename('Ma\tstratégie\u202e\r\n2')).body.strategy.display_name, 'Ma stratégie 2');
    assert.deepEqual((await rename('\u0007\u202e\r\n')).body.detail, 'Nom invalide (1 à 120 caractères).');
    const list = (await t.request('GET', '/api/user/strategies', { key: user.key })).body.items;
    for (const item of list) assert.ok(!CONTROLS.test(item.display_name), JSON.stringify(item.display_name));
    const archived = await t.db.models.ArchivedStrategy.findAll({ where: { userId: user.id } });
    for (const row of archived) assert.ok(!CONTROLS.test(row.displayName ?? ''), JSON.stringify(row.displayName));
  });

  it('no route answers another letter case (GET /API/DATASETS answered 200: its router was not case-sensitive)', async () => {
    const routes = appRoutes(t.app).filter((r) => r.path.startsWith('/api/'));
    assert.ok(routes.length > 60);
    for (const route of routes) {
      for (const spelling of [route.path.toUpperCase(), route.path.replace(/^\/api\/(.)/, (_, c: string) => `/api/${c.toUpperCase()}`)]) {
        const path = spelling.replace(/:[A-Za-z_]+/g, '1').replace('*PATH', 'EURUSD/H1/EURUSD_H1_2023-01.csv');
        const res = await t.request(route.method, path, route.method === 'GET' ? {} : { json: {} });
        // Every /api/admin/* path checks the role first, known or not (401 without a key).
        const expected = /^\/api\/admin\//i.test(path) ? 401 : 404;
        assert.equal(res.status, expected, `${route.method} ${path}: ${res.text.slice(0, 100)}`);
      }
    }
  });

  it('GET /api/list_csv_library: a month or year filter that is not one matches nothing, as an unknown symbol (it listed everything)', async () => {
    const all = (await t.request('GET', '/api/list_csv_library')).body.total;
    assert.ok(all > 0);
    for (const query of ['year=23', 'year=2023-01', 'month=2023-1', 'month=janvier', 'symbol=NOPE']) {
      const res = await t.request('GET', `/api/list_csv_library?${query}`);
      assert.deepEqual([res.status, res.body.total], [200, 0], query);
    }
    for (const query of ['year=', 'month=', 'symbol=ALL&tf=ALL']) assert.equal((await t.request('GET', `/api/list_csv_library?${query}`)).body.total, all, query);
  });

  it('a strategy whose file is gone (deleted while a run started) is not found, refunded: it was a 500', async () => {
    const user = await funded(t, 10);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(imported.status, 201, imported.text);
    const row = (await t.db.models.UserStrategy.findByPk(imported.body.id))!;
    await t.app.deps.storage.remove(row.path);
    const run = await runBacktest(t, user.key, { strategy: row.id });
    assert.deepEqual([run.status, run.body.detail], [404, 'Stratégie introuvable.']);
    assert.equal(await balance(t, user.id), 10, 'the charge is refunded');
    const download = await t.request('GET', `/api/user/strategies/${row.id}/download`, { key: user.key });
    assert.deepEqual([download.status, download.body.detail], [404, 'Stratégie introuvable.']);
  });

  it('a library month the index lists but the disk lost is "Fichier introuvable." and costs nothing (it was a 500)', async () => {
    const user = await funded(t, 3);
    const files = (await t.request('GET', '/api/list_csv_library')).body.files as { path: string; symbol: string }[];
    const victim = files.find((f) => f.symbol !== 'EURUSD')!;
    rmSync(join(t.libraryDir, victim.path));
    const res = await t.request('GET', `/api/download_csv_by_path/${victim.path}`, { key: user.key });
    assert.deepEqual([res.status, res.body.detail], [404, 'Fichier introuvable.']);
    assert.equal(await balance(t, user.id), 3);
  });

  it('a date of the years 0 to 99 is a date (Date.UTC read 0050 as 1950: "Date invalide" for a valid day, or for a file’s first candle)', async () => {
    const user = await funded(t, 10);
    const early = await runBacktest(t, user.key, { start_date: '0050-01-01', end_date: '0050-01-31' });
    assert.equal(early.status, 404, early.text);
    assert.match(early.body.detail, /^Aucune donnée officielle pour EURUSD M15 du 1er janvier 50 au 31 janvier 50\./);
    const leap = await runBacktest(t, user.key, { start_date: '0050-02-29', end_date: '0050-03-01' });
    assert.deepEqual([leap.status, leap.body.detail], [400, 'Date invalide : « 0050-02-29 » (format AAAA-MM-JJ).'], 'year 50 is not a leap year');
    const file = 'time,open,high,low,close,volume\n' + Array.from({ length: 24 }, (_, h) => `0001-01-01T${String(h).padStart(2, '0')}:00:00Z,1.1,1.2,1.0,1.15,10`).join('\n');
    const upl = await upload(user.key, file, 'ancien.csv');
    assert.equal(upl.status, 200, upl.text);
    assert.deepEqual([upl.body.start_date, upl.body.end_date], ['0001-01-01', '0001-01-01']);
  });

  it('a giant strategy key or parameter name is refused at once: the "did you mean" edit distance held the event loop seconds', async () => {
    const user = await funded(t, 10);
    // Counted, not timed (4 s before): the giant key is compared with no official key.
    const { result: key, entries } = await entriesIterated(STRATEGY_KEYS, () => runBacktest(t, user.key, { strategy: 'x'.repeat(1_000_000) }));
    assert.deepEqual([key.status, key.body.detail, entries], [400, `Stratégie inconnue : « ${'x'.repeat(80)} ».`, 0]);
    const { result: close, entries: compared } = await entriesIterated(STRATEGY_KEYS, () => runBacktest(t, user.key, { strategy: 'fvg_pulback_multi' }));
    assert.equal(close.body.detail, 'Stratégie inconnue : « fvg_pulback_multi » (voulais-tu dire fvg_pullback_multi ?).', 'suggestions stay');
    assert.ok(compared > 0, 'a typo is compared with the official keys');
    const name = await runBacktest(t, user.key, { params: { ['x'.repeat(1_000_000)]: 1 } });
    assert.deepEqual([name.status, name.body.detail], [400, `Champ « params » : nom de paramètre trop long (« ${'x'.repeat(40)}… », 64 caractères au plus).`]);
    const many = Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`p${i}`, 1]));
    for (const fields of [{ params: many }, { params_json: JSON.stringify(many) }]) {
      const res = await runBacktest(t, user.key, fields);
      assert.deepEqual([res.status, res.body.detail], [400, `Champ « params » : ${(15_000).toLocaleString('fr-FR')} paramètres, 100 au plus.`]);
    }
    const upl = await upload(user.key, goodCsv(), 'x.csv', { params_json: JSON.stringify({ ['y'.repeat(65)]: 1 }) });
    assert.deepEqual([upl.status, upl.body.detail], [400, `Champ « params » : nom de paramètre trop long (« ${'y'.repeat(40)}… », 64 caractères au plus).`]);
    assert.equal(await balance(t, user.id), 10, 'nothing charged');
    // A hundred names, and names of 64 characters, are still read (unknown ones dropped with a warning).
    const hundred = Object.fromEntries([...Array.from({ length: 99 }, (_, i) => [`p${i}`, 1]), ['z'.repeat(64), 1]]);
    const ok = await runBacktest(t, user.key, { params: hundred });
    assert.equal(ok.status, 200, ok.text.slice(0, 200));
    assert.equal(ok.body.warnings.filter((w: string) => w.startsWith('Paramètre inconnu')).length, 100);
  });

  it('an upload’s long text fields cost no quadratic time and no memory: a number of 500 KB, 1 MiB per form field, spread_by_hour and params_json within it', async () => {
    const user = await funded(t, 10);
    // Counted, not timed: no regular expression reads the 500 KB number (decimalOf's length check);
    // the body parser's checks of the whole JSON text (linear, anchored) are not counted.
    const notTheBody = (text: string) => !text.startsWith('{');
    const { result: digits, longest } = await longestRegexInput(() => runBacktest(t, user.key, { sl_pips: '1'.repeat(500_000) + 'x' }), notTheBody);
    assert.deepEqual([digits.status, digits.body.detail], [400, PIPS('sl_pips', '1'.repeat(40))]);
    assert.ok(longest < 100_000, `a regular expression ran on ${longest} characters`);
    const hours = await upload(user.key, goodCsv(), 'x.csv', { spread_by_hour: '1 '.repeat(500_000) });
    assert.deepEqual([hours.status, hours.body.detail], [400, 'Valeur invalide pour spread_by_hour : 24 spreads attendus (en pips, heures UTC 0 à 23), 500000 reçus.']);
    // A form's text field holds at most what a JSON body may: 1 MiB.
    for (const field of ['symbol', 'spread_by_hour', 'strategy']) {
      const res = await upload(user.key, goodCsv(), 'x.csv', { [field]: 'A'.repeat(2 * 1024 * 1024) });
      assert.deepEqual([res.status, res.body.detail], [400, `Champ « ${field} » trop long (1 Mo au plus).`]);
    }
    const form = await upload(user.key, goodCsv(), 'x.csv', { spread_by_hour: '1;'.repeat(23) + ' 2,\t3' });
    assert.deepEqual([form.status, form.body.detail], [400, 'Valeur invalide pour spread_by_hour : 24 spreads attendus (en pips, heures UTC 0 à 23), 25 reçus.'], 'short text: split as before');
    const params = await upload(user.key, goodCsv(), 'x.csv', { params_json: '[' + '{},'.repeat(300_000) + '{}]' });
    assert.deepEqual([params.status, params.body.detail], [400, 'Champ « params » : paramètres trop volumineux (879 Ko envoyés, 256 Ko au plus).']);
    assert.equal(await balance(t, user.id), 10);
  });

  it('support: an address with a line break or a space is invalid, names are kept on one line (a CRLF made a Reply-To that answered another address)', async () => {
    const send = (fields: Record<string, string>) => t.request('POST', '/api/support', { json: { type: 'contact', firstName: 'Eve', lastName: 'Martin', email: 'eve@example.com', message: 'Bonjour', ...fields } });
    for (const email of ['eve@example.com\r\nBcc: autre@example.com', 'eve@exa mple.com', 'eve@example.com\u0085']) {
      const res = await send({ email });
      assert.deepEqual([res.status, res.body.detail], [400, 'Merci d’entrer une adresse e-mail valide (doit contenir un @).'], JSON.stringify(email));
    }
    const res = await send({ firstName: 'Eve\r\nBcc: autre@example.com', lastName: 'Mar\ttin\u0007', message: 'Ligne 1\nLigne 2' });
    assert.equal(res.status, 201, res.text);
    const row = (await t.db.models.SupportMessage.findOne({ order: [['id', 'DESC']] }))!;
    assert.deepEqual([row.firstName, row.lastName, row.message], ['Eve Bcc: autre@example.com', 'Mar tin', 'Ligne 1\nLigne 2'], 'the message keeps its lines');
    assert.deepEqual((await send({ firstName: '\r\n\t' })).body.detail, 'Tous les champs sont obligatoires.');
  });

  it('a strategy row the database refuses takes its .py with it: nothing under strategies/{user} names no row', async () => {
    const user = await funded(t, 0);
    const { strategies, } = t.app.services;
    const { shape, dryRun } = await strategies.validate(BREAKOUT_PY);
    const row = (await t.db.models.User.findByPk(user.id))!;
    const input = { source: BREAKOUT_PY, shape, origin: 'import' as const, filename: 'x.py', slMode: null as unknown as 'external', archive: { provider: 'import' as const, attempts: 1, generation_seconds: 0, openai_failures: 0, dry_run_failures: 0 } };
    await assert.rejects(strategies.save(row, input, dryRun));
    const left = await t.app.deps.storage.entries(`strategies/${user.id}`).catch(() => []);
    assert.deepEqual(left.filter((e) => e.type === 'file').map((e) => e.name), [], 'no orphan .py');
    assert.equal(await t.db.models.UserStrategy.count({ where: { userId: user.id } }), 0);
  });

  it('the public Config sheet reads use_header as the owner’s does (` no ` gave letters as headers but no header row)', async () => {
    const user = await funded(t, 10);
    const run = await runBacktest(t, user.key, { strategy: 'ob_pullback_pure' });
    assert.equal(run.status, 200, run.text);
    const [top] = (await t.request('GET', '/api/top-strategy')).body;
    assert.ok(top, 'a public result');
    for (const flag of ['no', '%20NO%20', 'false', '0']) {
      const page = await t.request('GET', `/api/public/xlsx/sheet?folder=${top.folder}&sheet=Config&limit=3&use_header=${flag}`);
      assert.equal(page.status, 200, page.text);
      assert.deepEqual([page.body.headers, page.body.rows[0]], [['A', 'B'], ['metric', 'value']], flag);
    }
    const withHeader = await t.request('GET', `/api/public/xlsx/sheet?folder=${top.folder}&sheet=Config&limit=3&use_header=%20yes`);
    assert.deepEqual(withHeader.body.headers, ['metric', 'value']);
    assert.notDeepEqual(withHeader.body.rows[0], ['metric', 'value']);
  });
});

const UPLOAD_FIELDS = { strategy: 'englobante_entry', sl_pips: '10', tp1_pips: '10', tp2_pips: '20', symbol: 'eurusd', timeframe: 'H1' };
const goodCsv = () => readFileSync(FIXTURES + 'official/EURUSD_H1_custom-upload.csv', 'utf8');

function upload(key: string, file: string, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...UPLOAD_FIELDS, ...fields })) form.append(k, v);
  form.append('csv_file', new Blob([new TextEncoder().encode(file)]), name);
  return t.request('POST', '/api/upload_csv_and_backtest', { key, form });
}
