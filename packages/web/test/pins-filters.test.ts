import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { memoryStorage } from '../src/session/keyStorage.js';
import { PinStore } from '../src/features/pins/store.js';
import { PINNABLE_SHEETS, rowPins } from '../src/features/pins/rowPins.js';
import { NO_PIN_FILTERS, bucketFilterOf, filterPins, pinFilterOptions, pinHour, sortPins, visiblePins, type PinFilters } from '../src/features/pins/filters.js';
import { realResult, type RealResult } from './support/real-result.js';
import { folderFacts, folderView, isWinrateMetric, pinResultsTitle, type Pin } from '../src/features/pins/pin.js';

let eurusd: RealResult;
let eu50: RealResult;
let pins: readonly Pin[];

/** Every row pin of every pinnable sheet of a result, the per-hour ones seen at UTC+1. */
function pinAll(store: PinStore, result: RealResult) {
  for (const sheet of PINNABLE_SHEETS) {
    const table = result.sheets.get(sheet)!;
    for (const row of table.rows) for (const offer of rowPins({ folder: result.folder, sheet, headers: table.headers, row, tzOffset: 1 })) store.pin(offer);
  }
}

const filters = (patch: Partial<PinFilters>): PinFilters => ({ ...NO_PIN_FILTERS, ...patch });

before(async () => {
  eurusd = await realResult({ file: 'smc/EURUSD_15M.csv', utcOffset: '+02:00', symbol: 'EURUSD', strategy: 'ob_pullback_pure_rsi', start: '2023-01-01', end: '2023-03-31', slPips: 10 });
  eu50 = await realResult({ file: 'backtrader/2006-min-005.txt', utcOffset: '+01:00', symbol: 'EU50', strategy: 'fvg_impulsive', start: '2006-01-01', end: '2006-01-31', slPips: 20 });
  let t = 0;
  const store = new PinStore(memoryStorage(), () => ++t, 10_000);
  pinAll(store, eurusd);
  pinAll(store, eu50);
  pins = store.getPins();
});

describe('pinning a metric row of the results modal', () => {
  it('a Global row pins its value; a bucket row offers each numeric metric of the row', () => {
    const global = eurusd.sheets.get('Global')!;
    const winrateRow = global.rows.find((row) => row[0] === 'Winrate TP1')!;
    const [offer] = rowPins({ folder: eurusd.folder, sheet: 'Global', headers: global.headers, row: winrateRow });
    assert.deepEqual(offer, { folder: eurusd.folder, type: 'global', key: 'Winrate TP1', bucket: null, value: winrateRow[1] });

    const hours = eurusd.sheets.get('Par_Heure')!;
    const hourIndex = hours.headers.indexOf('Heure (UTC)');
    const row = hours.rows.find((r) => typeof r[hours.headers.indexOf('Winrate TP1')] === 'number')!;
    const offers = rowPins({ folder: eurusd.folder, sheet: 'Par_Heure', headers: hours.headers, row, tzOffset: 2 });
    assert.ok(offers.length > 3);
    assert.ok(offers.every((o) => o.type === 'per-hour' && o.bucket === String(row[hourIndex]) && o.tz === 2));
    assert.ok(!offers.some((o) => /heure/i.test(o.key)), 'the hour column is the bucket, not a metric');
    assert.ok(offers.some((o) => o.key === 'Winrate TP1'));

    const sessions = eurusd.sheets.get('Sessions')!;
    const london = sessions.rows.find((r) => r[0] === 'Londres')!;
    const sessionOffers = rowPins({ folder: eurusd.folder, sheet: 'Sessions', headers: sessions.headers, row: london });
    assert.ok(sessionOffers.every((o) => o.bucket === 'Londres' && o.tz === undefined && !/heures/i.test(o.key)));
  });

  it('a bucket row without a trade offers nothing: no picker on empty rows; the golden rank is not a metric', () => {
    const days = eu50.sheets.get('Jour_Semaine')!;
    const saturday = days.rows.find((r) => r[0] === 'Sam')!;
    assert.equal(saturday[days.headers.indexOf('Trades')], 0);
    assert.deepEqual(rowPins({ folder: eu50.folder, sheet: 'Jour_Semaine', headers: days.headers, row: saturday }), []);
    const hours = eurusd.sheets.get('Par_Heure')!;
    const offers = hours.rows.flatMap((row) => rowPins({ folder: eurusd.folder, sheet: 'Par_Heure', headers: hours.headers, row, tzOffset: 0 }));
    assert.ok(offers.length > 0 && !offers.some((o) => o.key === 'Golden hour (rang)'));
  });

  it('Config and Trades rows, and a missing folder, offer nothing', () => {
    const config = eurusd.sheets.get('Config')!;
    assert.deepEqual(rowPins({ folder: eurusd.folder, sheet: 'Config', headers: config.headers, row: config.rows[0] }), []);
    const global = eurusd.sheets.get('Global')!;
    assert.deepEqual(rowPins({ folder: null, sheet: 'Global', headers: global.headers, row: global.rows[0] }), []);
  });
});

describe('pins wall filters (docs/product.md §2.2)', () => {
  it('options list what the pins hold: types in sheet order, days Lun..Dim, both pairs and periods', () => {
    const options = pinFilterOptions(pins);
    assert.deepEqual(options.types.map((t) => t.label), ['Résumé global', 'TP2 global', 'Par session', 'Par heure', 'Par jour']);
    // Days with trades only: a bucket without a trade offers nothing to pin (no Saturday in forex or in the Euro Stoxx).
    assert.deepEqual(options.days, ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Dim']);
    assert.deepEqual(options.sessions, ['Asie', 'Londres', 'Londres/New York', 'New York', 'Hors session']);
    assert.deepEqual(options.pairs, ['EU50', 'EURUSD']);
    assert.deepEqual(options.periods, ['2006-01-01 → 2006-01-31', '2023-01-01 → 2023-03-31']);
    assert.deepEqual(options.strategies, ['fvg_impulsive', 'ob_pullback_pure_rsi']);
    assert.ok(options.metrics.includes('Winrate TP1') && options.metrics.includes('Taux SL'));
    assert.equal(options.hours[0], '00h');
  });

  it('the bucket filter follows the type: Heure, Session, Jour, none for global sheets', () => {
    assert.deepEqual(bucketFilterOf('per-hour'), { field: 'hour', label: 'Heure' });
    assert.deepEqual(bucketFilterOf('sessions'), { field: 'session', label: 'Session' });
    assert.deepEqual(bucketFilterOf('day-of-week'), { field: 'day', label: 'Jour' });
    assert.equal(bucketFilterOf('global'), null);
    assert.equal(bucketFilterOf(''), null);
  });

  it('Métrique, Type, Période and the bucket narrow the wall; a bucket filter without its type is ignored', () => {
    const byType = filterPins(pins, filters({ type: 'per-hour', metric: 'Winrate TP1', period: '2023-01-01 → 2023-03-31' }));
    const hours = eurusd.sheets.get('Par_Heure')!;
    const rated = (result: RealResult) => {
      const sheet = result.sheets.get('Par_Heure')!;
      return sheet.rows.filter((row) => typeof row[sheet.headers.indexOf('Winrate TP1')] === 'number');
    };
    assert.equal(byType.length, rated(eurusd).length, 'one per hour of the EURUSD result with a win rate');
    assert.ok(hours.rows.length > 0);
    const nine = filterPins(pins, filters({ type: 'per-hour', metric: 'Winrate TP1', hour: '09h' }));
    const hourColumn = (result: RealResult) => result.sheets.get('Par_Heure')!.headers.indexOf('Heure (UTC)');
    const ratedAt8 = [eurusd, eu50].filter((result) => rated(result).some((row) => String(row[hourColumn(result)]) === '8')).length;
    assert.ok(ratedAt8 > 0);
    assert.equal(nine.length, ratedAt8);
    assert.ok(nine.every((p) => p.bucket === '8' && pinHour(p) === '09h'), 'hours are matched as shown (UTC+1)');
    assert.equal(filterPins(pins, filters({ hour: '09h' })).length, pins.length);
    const mondays = filterPins(pins, filters({ type: 'day-of-week', day: 'Lun', pair: 'EU50' }));
    assert.ok(mondays.length > 0 && mondays.every((p) => p.bucket === 'Lun' && folderFacts(p.folder).pair === 'EU50'));
    const london = filterPins(pins, filters({ type: 'sessions', session: 'Londres', strategy: 'fvg_impulsive', metric: 'Taux SL' }));
    assert.equal(london.length, 1);
  });

  it('the free-text search matches every word, without accents or case', () => {
    const found = filterPins(pins, filters({ search: 'eu50 LONDRES taux' }));
    assert.ok(found.length >= 1);
    assert.ok(found.every((p) => p.folder === eu50.folder && p.bucket?.startsWith('Londres')));
    assert.equal(filterPins(pins, filters({ search: 'resume global eurusd winrate tp1' })).length, 1);
    assert.equal(filterPins(pins, filters({ search: 'nothing-like-this' })).length, 0);
  });

  it('cards show the strategy by its label and the period in French; the search finds them as shown', () => {
    const view = folderView(eurusd.folder);
    assert.deepEqual([view.pair, view.timeframe, view.strategy, view.period], ['EURUSD', 'M15', 'OB pullback pur + RSI', '1er janvier\u2009–\u200931 mars 2023']);
    // The filters keep the raw values: the ids of their options, and what a pin is compared with.
    assert.equal(folderFacts(eurusd.folder).strategy, 'ob_pullback_pure_rsi');
    // A personal strategy (no catalogue label) and a folder that does not parse show what they hold.
    assert.equal(folderView('EURUSD_M15_gpt-42_20230101-20230131_sl20').strategy, 'gpt-42');
    assert.equal(folderView('not-a-result').period, '');
    // The results overlay is titled as the dashboard's cards are; a folder that does not parse as it is.
    assert.equal(pinResultsTitle(eurusd.folder), 'Résultats · EURUSD · M15 · OB pullback pur + RSI');
    assert.equal(pinResultsTitle('not-a-result'), 'Résultats · not-a-result');
    const eurusdPins = pins.filter((p) => p.folder === eurusd.folder).length;
    assert.equal(filterPins(pins, filters({ search: 'janvier mars pullback pur' })).length, eurusdPins);
  });
});

describe('pins wall sorts (docs/product.md §2.9)', () => {
  it('winrate: win-rate pins first, best first; value ascending and descending; metric A-Z', () => {
    const byWinrate = sortPins(pins, 'winrate');
    const firstOther = byWinrate.findIndex((p) => !isWinrateMetric(p.key));
    assert.ok(firstOther > 0);
    assert.ok(byWinrate.slice(firstOther).every((p) => !isWinrateMetric(p.key)));
    const rates = byWinrate.slice(0, firstOther).map((p) => p.value);
    assert.deepEqual(rates, [...rates].sort((a, b) => b - a));
    const down = sortPins(pins, 'value-desc').map((p) => p.value);
    assert.deepEqual(down, [...down].sort((a, b) => b - a));
    const up = sortPins(pins, 'value-asc').map((p) => p.value);
    assert.deepEqual(up, [...up].sort((a, b) => a - b));
    const keys = sortPins(pins, 'key-az').map((p) => p.keyDisplay ?? p.key);
    assert.deepEqual(keys, [...keys].sort((a, b) => a.localeCompare(b, 'fr')));
  });

  it('visiblePins filters then sorts, and leaves the stored list untouched', () => {
    const before = pins.map((p) => p.id);
    const shown = visiblePins(pins, filters({ metric: 'Trades', type: 'per-hour', sort: 'value-desc' }));
    const traded = (result: RealResult) => {
      const sheet = result.sheets.get('Par_Heure')!;
      return sheet.rows.filter((row) => (row[sheet.headers.indexOf('Trades')] as number) > 0).length;
    };
    assert.equal(shown.length, traded(eurusd) + traded(eu50), 'one per hour with trades, in both results');
    assert.ok(shown[0].value >= shown.at(-1)!.value && shown.every((p) => p.value > 0));
    assert.deepEqual(pins.map((p) => p.id), before);
  });
});
