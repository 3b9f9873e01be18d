import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError, NetworkError } from '../src/api/errors.js';
import {
  BACKTESTS_PAGE,
  CSVS_PAGE,
  backtestDeleteFailureMessage,
  backtestDeleteMessage,
  csvPeriodLabel,
  csvsFromPurchaseHistory,
  pageCount,
  parseBacktestItem,
  parseBacktests,
  parseBacktestPage,
  BACKTEST_SORTS,
  parseCsvs,
  renameTarget,
  sortStrategies,
} from '../src/pages/dashboard/items.js';
import { parseStrategyCards } from '../src/pages/dashboard/strategies.js';

const run = (n: number, patch: Record<string, unknown> = {}) => ({
  id: n,
  folder: `EURUSD_M15_ob_pullback_pure_2023010${n % 9}-20230131_sl10`,
  symbol: 'EURUSD',
  timeframe: 'M15',
  display_name: 'OB pullback pur',
  period: '2023-01-01 → 2023-01-31',
  winrate: 0.5,
  trades: 10,
  xlsx_filename: 'x.xlsx',
  ...patch,
});

describe('dashboard backtest items (docs/product.md §2.3 aliases)', () => {
  it('reads the server item and every alias', () => {
    const item = parseBacktestItem(run(1, { winrate: 0.6234, trades: 41 }))!;
    assert.equal(item.pair, 'EURUSD');
    assert.ok(Math.abs(item.winrate! - 62.34) < 1e-9);
    assert.equal(item.trades, 41);
    assert.equal(item.xlsxFile, 'x.xlsx');
    const aliased = parseBacktestItem({ run_id: 'r1', pair: 'gbpusd', tf: 'h1', strategy_display: 'FVG', date_range: '2023-02', tp1_winrate: '45,5%', total_trades: '7' })!;
    assert.deepEqual(
      { id: aliased.id, pair: aliased.pair, tf: aliased.timeframe, strategy: aliased.strategy, period: aliased.period, winrate: aliased.winrate, trades: aliased.trades, folder: aliased.folder, xlsx: aliased.xlsxFile },
      { id: 'r1', pair: 'GBPUSD', tf: 'H1', strategy: 'FVG', period: '2023-02', winrate: 45.5, trades: 7, folder: null, xlsx: null },
    );
    assert.equal(parseBacktestItem({ winrate_tp1: 0.4, count: 3 })!.trades, 3);
  });

  it('accepts an array or {items}, and anything else as empty', () => {
    assert.equal(parseBacktests([run(1), run(2)]).length, 2);
    assert.equal(parseBacktests({ items: [run(1)], total: 1 }).length, 1);
    assert.deepEqual(parseBacktests({ detail: 'x' }), []);
    assert.deepEqual(parseBacktests(null), []);
  });

  it("reads a page of the server's list with its count; the orders are the server's sort names", () => {
    const page = parseBacktestPage({ items: [run(1), run(2)], total: 40 });
    assert.deepEqual([page.items.map((b) => b.id), page.total], [['1', '2'], 40]);
    assert.equal(parseBacktestPage([run(1)]).total, null, 'an array carries no count');
    assert.equal(parseBacktestPage({ items: [], total: -1 }).total, null);
    assert.equal(parseBacktestPage({ items: [], total: '12' }).total, null);
    assert.deepEqual(parseBacktestPage({ detail: 'x' }), { items: [], total: null });
    assert.deepEqual(BACKTEST_SORTS.map((s) => s.id), ['winrate-desc', 'winrate-asc', 'trades-desc', 'trades-asc', 'pair-az']);
  });

  it('pages 9 then +9 for backtests and 10 then +10 for CSVs', () => {
    assert.equal(BACKTESTS_PAGE, 9);
    assert.equal(CSVS_PAGE, 10);
    assert.equal(pageCount(BACKTESTS_PAGE, 0, 20), 9);
    assert.equal(pageCount(BACKTESTS_PAGE, 1, 20), 18);
    assert.equal(pageCount(BACKTESTS_PAGE, 2, 20), 20);
    assert.equal(pageCount(CSVS_PAGE, 0, 4), 4);
    assert.equal(pageCount(CSVS_PAGE, 1, 25), 20);
  });

  it('delete failure message: the server detail, else erreur serveur (docs/product.md §2.8)', () => {
    assert.equal(backtestDeleteMessage('Dossier inconnu'), 'Suppression impossible : Dossier inconnu');
    assert.equal(backtestDeleteMessage(undefined), 'Suppression impossible : erreur serveur');
    assert.equal(backtestDeleteMessage('  '), 'Suppression impossible : erreur serveur');
  });

  it('delete failure: a request that got no answer says the network failed, not the server', () => {
    assert.equal(backtestDeleteFailureMessage(new NetworkError(new TypeError('Failed to fetch'))), 'Suppression impossible : Erreur réseau.');
    assert.equal(backtestDeleteFailureMessage(new HttpError(404, 'Dossier inconnu', { detail: 'Dossier inconnu' })), 'Suppression impossible : Dossier inconnu');
    assert.equal(backtestDeleteFailureMessage(new HttpError(500, undefined, undefined)), 'Suppression impossible : erreur serveur');
    assert.equal(backtestDeleteFailureMessage(new Error('boom')), 'Suppression impossible : erreur serveur');
  });
});

describe('dashboard strategies', () => {
  const answer = {
    items: [
      { id: 'us_b', display_name: 'beta', display_filename: 'beta.py', source: 'gpt', sl_mode: 'internal', created_at: 1_700_000_200, comment: 'Explication', meta: { comment_user: 'ma note' } },
      { id: 'us_a', display_name: 'Alpha', display_filename: 'alpha.py', source: 'import', created_at: 1_700_000_100, comment_user: '' },
      { id: 'us_c', display_name: 'Éclair', source: 'import', created_at: 1_700_000_300 },
    ],
  };

  it('cards carry the comment and the note separately', () => {
    const [b] = parseStrategyCards(answer);
    assert.equal(b.description, 'Explication');
    assert.equal(b.note, 'ma note');
    assert.equal(b.fileName, 'beta.py');
    assert.equal(parseStrategyCards(answer)[2].fileName, 'us_c.py');
  });

  it('sorts recent, oldest and name A-Z (accents and case folded)', () => {
    const cards = parseStrategyCards(answer);
    assert.deepEqual(sortStrategies(cards, 'recent').map((s) => s.id), ['us_c', 'us_b', 'us_a']);
    assert.deepEqual(sortStrategies(cards, 'oldest').map((s) => s.id), ['us_a', 'us_b', 'us_c']);
    assert.deepEqual(sortStrategies(cards, 'name-az').map((s) => s.name), ['Alpha', 'beta', 'Éclair']);
  });

  it('rename: an empty or unchanged name cancels (docs/product.md §2.4)', () => {
    assert.equal(renameTarget('Alpha', '  '), null);
    assert.equal(renameTarget('Alpha', ' Alpha '), null);
    assert.equal(renameTarget('Alpha', ' Alpha v2 '), 'Alpha v2');
  });
});

describe('dashboard CSV list', () => {
  it('reads /api/user/csvs items (library and extraction)', () => {
    const items = parseCsvs({
      items: [
        { id: 2, filename: 'EURUSD_M15_20250101_to_20250105.csv', path: 'live/EURUSD_M15_20250101_to_20250105.csv', symbol: 'EURUSD', timeframe: 'M15', start_date: '2025-01-01', end_date: '2025-01-05', kind: 'extraction', source: 'live', label: 'LIVE (privé)', purchased_at: '2026-01-02T10:00:00Z' },
        { id: 1, name: 'EURUSD_H1_2023-01.csv', relative_path: 'EURUSD/H1/EURUSD_H1_2023-01.csv', pair: 'EURUSD', tf: 'H1', period: '2023-01', kind: 'library', date: '2026-01-01T10:00:00Z' },
      ],
    });
    assert.equal(items.length, 2);
    assert.equal(items[0].kind, 'extraction');
    assert.equal(items[0].period, '2025-01-01 → 2025-01-05');
    assert.equal(items[1].path, 'EURUSD/H1/EURUSD_H1_2023-01.csv');
    assert.equal(items[1].timeframe, 'H1');
  });

  it('shows a period in French: a library month and an extraction range', () => {
    assert.equal(csvPeriodLabel('2023-01'), 'janvier 2023');
    assert.equal(csvPeriodLabel('2025-01-01 → 2025-01-05'), '1er–5 janvier 2025');
    assert.equal(csvPeriodLabel(''), '');
    assert.equal(csvPeriodLabel('T1 2023'), 'T1 2023', 'anything else as it is');
  });

  it('falls back to the download entries of the purchase history', () => {
    const items = csvsFromPurchaseHistory({
      purchase_history: [
        { type: 'csvDownload', label: 'Téléchargement CSV', txid: 'csv:12:EURUSD/H1/EURUSD_H1_2023-01.csv', date: '2026-01-03' },
        { type: 'backtest', txid: 'run-1' },
        { type: 'extraction', txid: 'extraction:12:EURUSD_M15_20250101_to_20250105.csv', date: '2026-01-02' },
        { type: 'purchase', offer_id: 'CREDIT_5' },
      ],
    });
    assert.deepEqual(items.map((i) => [i.path, i.kind]), [
      ['EURUSD/H1/EURUSD_H1_2023-01.csv', 'library'],
      ['live/EURUSD_M15_20250101_to_20250105.csv', 'extraction'],
    ]);
    assert.deepEqual(csvsFromPurchaseHistory({}), []);
  });
});
