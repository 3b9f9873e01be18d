import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeAdminCalls } from '../src/api/admin.js';
import type { ApiClient } from '../src/api/client.js';
import { HttpError } from '../src/api/errors.js';
import { dispositionName, makeFileFetcher, type FileFetcher } from '../src/api/files.js';
import { formatDelta, formatSize } from '../src/features/admin/format.js';
import { cellShade, gridMax, heatmapGrid, SHADE_MAX, SHADE_MIN, WEEKDAYS } from '../src/features/admin/heatmap.js';
import { HIDDEN_BACKTESTS_CAP, HIDDEN_BACKTESTS_KEY, HiddenBacktests, parseHidden } from '../src/features/admin/hiddenBacktests.js';
import { currentMonth, importProblem, isMonth, needsConfirmation, stateFor } from '../src/features/admin/importForm.js';
import { failure, MSG } from '../src/features/admin/messages.js';
import { defaultRange, isDay, rangeQuery, withEnd, withPreset, withStart } from '../src/features/admin/range.js';
import { attentionAmount, DEFAULT_SL, parentPath, reservedNameBadge, stopOf, USER_SORTS } from '../src/features/admin/rules.js';
import { ADMIN_TABS, tabOf } from '../src/features/admin/tabs.js';
import { memoryStorage } from '../src/session/keyStorage.js';

const NOW = Date.parse('2026-11-26T10:15:00Z');

describe('admin statistics range (Jour, Semaine, Mois, Tout, Custom)', () => {
  it('defaults to Custom, the last 30 days to today (UTC days)', () => {
    assert.deepEqual(defaultRange(NOW), { range: 'custom', start: '2026-10-28', end: '2026-11-26' });
    // 23:30 UTC is still the same UTC day.
    assert.deepEqual(defaultRange(Date.parse('2026-03-01T23:30:00Z')), { range: 'custom', start: '2026-01-31', end: '2026-03-01' });
  });

  it('moving Du past Au pushes Au to Du; moving Au before Du pulls Du to Au', () => {
    const base = defaultRange(NOW);
    assert.deepEqual(withStart(base, '2026-12-05'), { range: 'custom', start: '2026-12-05', end: '2026-12-05' });
    assert.deepEqual(withStart(base, '2026-11-01'), { range: 'custom', start: '2026-11-01', end: '2026-11-26' });
    assert.deepEqual(withEnd(base, '2026-10-01'), { range: 'custom', start: '2026-10-01', end: '2026-10-01' });
    assert.deepEqual(withEnd(base, '2026-11-20'), { range: 'custom', start: '2026-10-28', end: '2026-11-20' });
    // Equal days are a valid one-day range.
    assert.deepEqual(withEnd(base, '2026-10-28'), { range: 'custom', start: '2026-10-28', end: '2026-10-28' });
  });

  it('ignores a cleared or impossible date instead of breaking the pair', () => {
    const base = defaultRange(NOW);
    for (const bad of ['', '2026-02-30', '26-11-01', '2026-13-01', 'abc']) {
      assert.deepEqual(withStart(base, bad), base);
      assert.deepEqual(withEnd(base, bad), base);
    }
    assert.equal(isDay('2024-02-29'), true);
    assert.equal(isDay('2026-02-29'), false);
  });

  it('sends the dates only for Custom; a preset keeps the Du/Au pair for later', () => {
    const base = defaultRange(NOW);
    assert.deepEqual(rangeQuery(base), { range: 'custom', start: '2026-10-28', end: '2026-11-26' });
    for (const range of ['day', 'week', 'month', 'all'] as const) {
      const next = withPreset(base, range);
      assert.deepEqual(rangeQuery(next), { range });
      assert.deepEqual(rangeQuery(withPreset(next, 'custom')), rangeQuery(base));
    }
  });
});

describe('sizes in o, ko, Mo, Go', () => {
  it('writes bytes, then powers of 1024 with one French decimal', () => {
    const nb = (s: string) => s.replace(/\u00a0/g, ' ').replace(/\u202f/g, ' ');
    assert.equal(nb(formatSize(0)), '0 o');
    assert.equal(nb(formatSize(1023)), '1 023 o');
    assert.equal(nb(formatSize(1024)), '1 ko');
    assert.equal(nb(formatSize(1536)), '1,5 ko');
    assert.equal(nb(formatSize(1024 * 1024 - 1)), '1 Mo', 'never 1 024 ko');
    assert.equal(nb(formatSize(12.34 * 1024 * 1024)), '12,3 Mo');
    assert.equal(nb(formatSize(2.1 * 1024 ** 3)), '2,1 Go');
    assert.equal(nb(formatSize(3 * 1024 ** 4)), '3 072 Go', 'Go is the largest unit');
  });

  it('prints an em dash for what is not a size', () => {
    for (const bad of [null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(formatSize(bad as number), '—');
  });

  it('shows a backtest line without a delta as -2 credits', () => {
    assert.equal(formatDelta(null, 'backtest'), '-2');
    assert.equal(formatDelta(3, 'admin'), '+3');
    assert.equal(formatDelta(null, 'admin'), '—');
  });
});

describe('hidden backtests store (admin_hidden_backtests_v1)', () => {
  it('keeps hidden ids under admin_hidden_backtests_v1 and reads them back in a new store', () => {
    const storage = memoryStorage();
    const store = new HiddenBacktests(storage);
    let calls = 0;
    store.subscribe(() => calls++);
    store.hide(12);
    store.hide('run-7');
    store.hide(12);
    assert.deepEqual(JSON.parse(storage.getItem(HIDDEN_BACKTESTS_KEY)!), ['12', 'run-7']);
    assert.equal(calls, 2, 'hiding an id twice changes nothing');
    const again = new HiddenBacktests(storage);
    assert.equal(again.has(12), true);
    assert.equal(again.has('12'), true);
    assert.equal(again.has(13), false);
    again.unhideAll();
    assert.equal(storage.getItem(HIDDEN_BACKTESTS_KEY), null);
    assert.deepEqual(again.list(), []);
  });

  it('reads damaged or foreign values as nothing hidden, dropping bad items and duplicates', () => {
    assert.deepEqual(parseHidden('not json'), []);
    assert.deepEqual(parseHidden('{"a":1}'), []);
    assert.deepEqual(parseHidden('[1, "1", "x", null, {}, "", 2.5, "x"]'), ['1', 'x', '2.5']);
  });

  it('survives a storage that refuses writes, and stays bounded', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('quota'); }, removeItem: () => { throw new Error('denied'); } };
    const store = new HiddenBacktests(refusing);
    store.hide(1);
    assert.equal(store.has(1), true, 'hidden for this page at least');
    store.unhideAll();
    assert.equal(store.has(1), false);
    const storage = memoryStorage();
    const big = new HiddenBacktests(storage);
    for (let i = 0; i < HIDDEN_BACKTESTS_CAP + 3; i++) big.hide(i);
    assert.equal(big.list().length, HIDDEN_BACKTESTS_CAP);
    assert.equal(big.has(0), false, 'the oldest go first');
    assert.equal(big.has(HIDDEN_BACKTESTS_CAP + 2), true);
  });
});

describe('heatmap 7 × 24, Monday first, shade 0.08 → 0.5', () => {
  it('orders rows Monday first by label and fills missing cells with 0', () => {
    const rows = [
      { label: 'Dim', hours: [0, 0, 0, 1] },
      { label: 'Lun', hours: Array.from({ length: 24 }, (_, h) => (h === 9 ? 4 : 0)) },
    ];
    const grid = heatmapGrid(rows);
    assert.equal(grid.length, 7);
    assert.ok(grid.every((r) => r.length === 24));
    assert.equal(grid[0][9], 4);
    assert.equal(grid[6][3], 1);
    assert.equal(gridMax(grid), 4);
    assert.deepEqual(WEEKDAYS, ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
  });

  it('shades linearly from 0.08 (empty) to 0.5 (the maximum)', () => {
    assert.equal(cellShade(0, 4), SHADE_MIN);
    assert.equal(cellShade(4, 4), SHADE_MAX);
    assert.ok(Math.abs(cellShade(2, 4) - 0.29) < 1e-9);
    assert.equal(cellShade(0, 0), SHADE_MIN);
    assert.equal(cellShade(9, 4), SHADE_MAX, 'never past 0.5');
  });
});

describe('admin console shell and messages', () => {
  it('deep-links the seven tabs by ?tab=, anything else is Utilisateurs', () => {
    assert.deepEqual(ADMIN_TABS.map((t) => t.label), ['Utilisateurs', 'Historique', 'Statistiques', 'Backtests', 'Stratégies', 'Disk', 'Maintenance']);
    assert.equal(tabOf('stats'), 'stats');
    assert.equal(tabOf('Disk'), 'disk');
    assert.equal(tabOf('nope'), 'users');
    assert.equal(tabOf(null), 'users');
  });

  it("a failed call reads the server's detail, else '{status} {statusText}'; a 403 is 'Accès administrateur requis.'", () => {
    assert.equal(failure(new HttpError(409, 'Un import est déjà en cours : réessaie quand il sera terminé.', {}, 'Conflict'), MSG.importFailed), 'Un import est déjà en cours : réessaie quand il sera terminé.');
    assert.equal(failure(new HttpError(502, undefined, undefined, 'Bad Gateway'), MSG.dataLoad), '502 Bad Gateway');
    assert.equal(failure(new HttpError(403, 'Accès réservé aux administrateurs.', {}, 'Forbidden'), MSG.dataLoad), 'Accès administrateur requis.');
    assert.equal(failure(new TypeError('Failed to fetch'), MSG.connection), 'Erreur de connexion ou réponse invalide');
  });

  it('the import needs a ZIP or a URL, defaults to this month, and says which state it is in', () => {
    assert.equal(importProblem(null, '  '), 'Fournis un ZIP (fichier) ou une URL.');
    assert.equal(importProblem(null, 'https://example.org/a.zip'), null);
    assert.equal(importProblem(new Blob(['PK']), ''), null);
    assert.equal(currentMonth(NOW), '2026-11');
    assert.equal(isMonth('2026-11'), true);
    assert.equal(isMonth('2026-13'), false);
    assert.equal(stateFor(true), 'simulating');
    assert.equal(stateFor(false), 'executing');
  });

  it('asks before an import that overwrites for real, not before a skip or a dry run', () => {
    assert.equal(needsConfirmation('overwrite', false), true);
    assert.equal(needsConfirmation('overwrite', true), false);
    assert.equal(needsConfirmation('skip', false), false);
  });
});

describe('admin console tab rules', () => {
  it('asks the server for the users in the chosen order, a page at a time (no sorting in the browser)', async () => {
    const asked: [string, unknown][] = [];
    const api = { get: async (path: string, options: { query?: unknown }) => (asked.push([path, options.query]), { users: [], total: 0 }) } as unknown as ApiClient;
    const calls = makeAdminCalls(api, (async () => undefined) as unknown as FileFetcher);
    await calls.users({ q: 'durand', sort: 'credits', limit: 100, offset: 200 });
    await calls.users({ q: '', limit: 100, offset: 0 });
    await calls.globalHistory(200, 400);
    assert.deepEqual(asked, [
      ['/api/admin/get_users', { q: 'durand', sort: 'credits', limit: 100, offset: 200 }],
      ['/api/admin/get_users', { q: undefined, sort: undefined, limit: 100, offset: 0 }],
      ['/api/admin/global_history', { limit: 200, offset: 400 }],
    ]);
    assert.deepEqual(USER_SORTS.map((s) => s.key), ['newest', 'email', 'username', 'credits']);
  });

  it('lists the payments to settle by status, a page at a time, and closes one with its note (docs/admin.md "Payments to settle")', async () => {
    const asked: [string, string, unknown][] = [];
    const api = {
      get: async (path: string, options: { query?: unknown }) => (asked.push(['GET', path, options.query]), { items: [], total: 0, open: 0 }),
      post: async (path: string, body: unknown) => (asked.push(['POST', path, body]), { status: 'success', item: {} }),
    } as unknown as ApiClient;
    const calls = makeAdminCalls(api, (async () => undefined) as unknown as FileFetcher);
    await calls.paymentAttention('open', 50, 0);
    await calls.paymentAttention('all', 50, 50);
    await calls.resolvePaymentAttention(7, 'remboursé sur Stripe');
    await calls.resolvePaymentAttention(8, '');
    assert.deepEqual(asked, [
      ['GET', '/api/admin/payments/attention', { status: 'open', limit: 50, offset: 0 }],
      ['GET', '/api/admin/payments/attention', { status: 'all', limit: 50, offset: 50 }],
      ['POST', '/api/admin/payments/attention/7/resolve', { note: 'remboursé sur Stripe' }],
      ['POST', '/api/admin/payments/attention/8/resolve', {}],
    ]);
    assert.equal(attentionAmount({ amount_cents: 2000, currency: 'EUR' }), '20,00 EUR');
    assert.equal(attentionAmount({ amount_cents: 1050, currency: null }), '10,50');
    assert.equal(attentionAmount({ amount_cents: null, currency: 'EUR' }), '—');
  });

  it('a username taken before it was reserved gets a "Nom réservé" badge, only when the server says so (docs/admin.md)', () => {
    assert.deepEqual(reservedNameBadge({ reserved_username: true }), { text: 'Nom réservé', title: 'Nom pris avant sa réservation : ce compte n’est pas celui de l’équipe.' });
    assert.equal(reservedNameBadge({ reserved_username: false }), null);
    assert.equal(reservedNameBadge({}), null, 'an older server sends no flag');
  });

  it('reads the stop of a summary item from params.sl_pips or params.sl, 100 pips by default', () => {
    const item = (params?: Record<string, unknown>) => ({ id: 1, folder: 'f', symbol: 'EURUSD', timeframe: 'M15', strategy: 's', period: 'p', winrate_tp1: 0.5, total: 1, tp1: 1, tp2: 0, sl: 0, params });
    assert.equal(stopOf(item({ sl_pips: 15 })), 15);
    assert.equal(stopOf(item({ sl: 0 })), 0);
    assert.equal(stopOf(item({})), DEFAULT_SL);
    assert.equal(stopOf(item()), 100);
    assert.equal(stopOf(item({ sl_pips: '15' })), 100, 'a string is not a stop');
  });

  it('goes up one folder in the disk explorer', () => {
    assert.equal(parentPath('EURUSD/M15'), 'EURUSD');
    assert.equal(parentPath('EURUSD'), '');
    assert.equal(parentPath(''), '');
  });
});

describe('admin downloads keep the server’s file name', () => {
  it('reads Content-Disposition: filename* first, quoted, plain, never a path', () => {
    assert.equal(dispositionName('attachment; filename="EURUSD_M15.xlsx"'), 'EURUSD_M15.xlsx');
    assert.equal(dispositionName("attachment; filename=\"x.py\"; filename*=UTF-8''strat%C3%A9gie%20a.py"), 'stratégie a.py');
    assert.equal(dispositionName('attachment; filename=plain.csv'), 'plain.csv');
    assert.equal(dispositionName('attachment; filename="../../etc/passwd"'), 'passwd');
    assert.equal(dispositionName("attachment; filename*=UTF-8''%E0%A4%A"), null);
    assert.equal(dispositionName('inline'), null);
    assert.equal(dispositionName(null), null);
  });

  it('sends the key, names the file from the answer, and turns a refusal into an HttpError', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const answers = [
      new Response('PK..', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="run.xlsx"' } }),
      new Response('abc', { status: 200 }),
      new Response(JSON.stringify({ detail: 'Aucun fichier archivé pour cette entrée.' }), { status: 404, statusText: 'Not Found' }),
      new Response('<html>', { status: 502, statusText: 'Bad Gateway' }),
    ];
    const fetchFile = makeFileFetcher({
      fetch: async (url, init) => {
        seen.push({ url, init });
        return answers.shift()!;
      },
      url: (path) => path,
      getKey: () => 'k-123',
    });
    const named = await fetchFile('/api/admin/download_xlsx', { id: 7, sl: 0 }, 'fallback.xlsx');
    assert.equal(named.name, 'run.xlsx');
    assert.equal(await named.blob.text(), 'PK..');
    assert.equal(seen[0].url, '/api/admin/download_xlsx?id=7&sl=0');
    assert.deepEqual(seen[0].init.headers, { 'X-API-Key': 'k-123' });
    assert.equal((await fetchFile('/x', {}, 'fallback.py')).name, 'fallback.py');
    await assert.rejects(fetchFile('/x', {}, 'f'), (error: unknown) => error instanceof HttpError && error.status === 404 && failure(error, MSG.fileDownload) === 'Aucun fichier archivé pour cette entrée.');
    await assert.rejects(fetchFile('/x', {}, 'f'), (error: unknown) => failure(error, MSG.fileDownload) === '502 Bad Gateway');
  });
});
