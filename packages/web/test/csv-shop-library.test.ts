import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../src/api/errors.js';
import {
  ALL,
  LIVE_LABEL,
  NO_FILTER,
  PAGE_SIZE,
  PAGE_SIZE_NARROW,
  SHOP_MESSAGES,
  checkExtraction,
  downloadErrorMessage,
  extractionAnswerError,
  extractionErrorMessage,
  filterLibrary,
  formatBytes,
  monthLabel,
  monthOptions,
  pageStep,
  pairOptions,
  partialMonthText,
  readLibrary,
  readOwnedCsvs,
  recentExtractions,
  recentPlaceholder,
  showMoreLabel,
  symbolFromQuery,
  timeframeOptions,
  visibleFiles,
} from '../src/features/csv/library.js';
import { encodePath } from '../src/api/calls.js';

/** Library files as GET /api/list_csv_library lists them (docs/api.md), plus the alias shapes. */
function libraryAnswer() {
  const files: Record<string, unknown>[] = [];
  for (const [symbol, months] of [['EURUSD', ['2022-11', '2022-12', '2023-01']], ['EU50', ['2006-01']]] as const) {
    for (const tf of ['H4', 'H1', 'M15']) {
      for (const month of months) files.push({ symbol, pair: symbol, timeframe: tf, name: `${symbol}_${tf}_${month}.csv`, path: `${symbol}/${tf}/${symbol}_${tf}_${month}.csv`, period: month, rows: 100, size: 2048 });
    }
  }
  // Older shapes: tf + year/month; a timeframe the library never lists.
  files.push({ pair: 'GBPUSD', tf: 'h1', path: 'GBPUSD/H1/GBPUSD_H1_2024-03.csv', year: 2024, month: 3, owned: true });
  files.push({ symbol: 'GBPUSD', timeframe: 'M1', path: 'GBPUSD/M1/GBPUSD_M1_2024-03.csv', period: '2024-03' });
  files.push({ symbol: 'GBPUSD', timeframe: 'D1', path: 'GBPUSD/D1/GBPUSD_D1_2024-03.csv', period: '2024-03' });
  return { files, total: files.length };
}

describe('CSV shop library (docs/product.md §2.2, §2.3, §2.9)', () => {
  it('reads the files whatever their field names and leaves M1, D and D1 out', () => {
    const files = readLibrary(libraryAnswer());
    assert.equal(files.length, 4 * 3 + 1);
    const gbp = files.find((f) => f.symbol === 'GBPUSD')!;
    assert.deepEqual([gbp.timeframe, gbp.month, gbp.name, gbp.owned], ['H1', '2024-03', 'GBPUSD_H1_2024-03.csv', true]);
    assert.ok(files.every((f) => ['H4', 'H1', 'M30', 'M15', 'M5'].includes(f.timeframe)));
  });

  it('flags a partial month with the days it covers and its candle count (the server decides partial)', () => {
    const [april] = readLibrary({ files: [{ symbol: 'EURUSD', timeframe: 'H1', path: 'EURUSD/H1/EURUSD_H1_2017-04.csv', period: '2017-04', rows: 1234, partial: true, first_candle: '2017-04-19T09:00:00.000Z', last_candle: '2017-04-28T20:00:00.000Z' }] });
    assert.deepEqual([april.partial, april.firstCandle, april.lastCandle], [true, '2017-04-19T09:00:00.000Z', '2017-04-28T20:00:00.000Z']);
    assert.equal(partialMonthText(april), 'Mois partiel : du 19 avril au 28 avril (1\u202f234 bougies)');
    assert.equal(partialMonthText({ ...april, firstCandle: '', rows: null }), 'Mois partiel');
    assert.equal(partialMonthText({ ...april, partial: false }), '');
    // A month that starts with its first day but stops early: the first is written 1er.
    assert.equal(partialMonthText({ ...april, firstCandle: '2017-04-01T00:00:00.000Z', lastCandle: '2017-04-21T23:00:00.000Z' }), 'Mois partiel : du 1er avril au 21 avril (1\u202f234 bougies)');
    assert.equal(readLibrary(libraryAnswer()).some((f) => f.partial), false, 'no flag: a whole month');
  });

  it('filters by pair, timeframe and month; newest month first, then pair, then H4 down to M5', () => {
    const files = readLibrary(libraryAnswer());
    assert.equal(filterLibrary(files, NO_FILTER)[0].month, '2024-03');
    const eur = filterLibrary(files, { symbol: 'EURUSD', timeframe: ALL, month: ALL });
    assert.equal(eur.length, 9);
    assert.deepEqual(eur.slice(0, 3).map((f) => f.timeframe), ['H4', 'H1', 'M15']);
    assert.ok(eur.every((f, i) => i === 0 || f.month <= eur[i - 1].month));
    assert.deepEqual(filterLibrary(files, { symbol: 'EURUSD', timeframe: 'M15', month: '2022-12' }).map((f) => f.name), ['EURUSD_M15_2022-12.csv']);
    assert.deepEqual(filterLibrary(files, { symbol: 'EU50', timeframe: 'M30', month: ALL }), []);
  });

  it('the month filter offers the months of the other two filters, newest first, in French', () => {
    const files = readLibrary(libraryAnswer());
    const months = monthOptions(files, { symbol: 'EURUSD', timeframe: 'H1' });
    assert.deepEqual(months.map((m) => m.value), [ALL, '2023-01', '2022-12', '2022-11']);
    assert.equal(monthLabel('2023-01'), 'janvier 2023');
    assert.deepEqual(monthOptions(files, { symbol: 'EU50', timeframe: ALL }).map((m) => m.value), [ALL, '2006-01']);
  });

  it('pair filter: Toutes then sorted symbols; timeframes H4..M5; the symbol parameter preselects a known pair', () => {
    const pairs = pairOptions();
    assert.deepEqual(pairs[0], { value: ALL, label: 'Toutes' });
    const symbols = pairs.slice(1).map((p) => p.value);
    assert.deepEqual(symbols, [...symbols].sort());
    assert.deepEqual(timeframeOptions().map((t) => t.value), [ALL, 'H4', 'H1', 'M30', 'M15', 'M5']);
    assert.equal(symbolFromQuery('eurusd'), 'EURUSD');
    assert.equal(symbolFromQuery('NOPE'), ALL);
    assert.equal(symbolFromQuery(null), ALL);
  });

  it('pages of 16, or 10 at 640 px and below; show more adds the same step', () => {
    assert.equal(pageStep(1280), PAGE_SIZE);
    assert.equal(pageStep(641), 16);
    assert.equal(pageStep(640), PAGE_SIZE_NARROW);
    assert.equal(pageStep(375), 10);
    const items = Array.from({ length: 37 }, (_, i) => i);
    assert.deepEqual([visibleFiles(items, 1, 16).shown.length, visibleFiles(items, 1, 16).more], [16, true]);
    assert.deepEqual([visibleFiles(items, 2, 16).shown.length, visibleFiles(items, 2, 16).more], [32, true]);
    assert.deepEqual([visibleFiles(items, 3, 16).shown.length, visibleFiles(items, 3, 16).more], [37, false]);
    assert.deepEqual([visibleFiles(items, 4, 10).shown.length, visibleFiles(items, 4, 10).more], [37, false]);
    assert.deepEqual([visibleFiles(items, 3, 10).shown.length, visibleFiles(items, 3, 10).more], [30, true]);
  });

  it('sizes read as elsewhere in the app: o, ko, Mo with a decimal comma, never 1024 ko', () => {
    const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    assert.equal(plain(formatBytes(812)), '812 o');
    assert.equal(plain(formatBytes(1536)), '1,5 ko');
    assert.equal(plain(formatBytes(1024 * 1024 - 30)), '1 Mo');
    assert.equal(plain(formatBytes(2.25 * 1024 * 1024)), '2,3 Mo');
    assert.equal(formatBytes(null), '');
  });

  it("'show more' counts what is left the French way", () => {
    assert.equal(showMoreLabel(1234), 'Afficher plus (1\u202f234 restants)');
    assert.equal(showMoreLabel(1), 'Afficher plus (1 restant)');
  });

  it('library paths go in the URL segment by segment', () => {
    assert.equal(encodePath('EURUSD/H1/EURUSD_H1_2023-01.csv'), 'EURUSD/H1/EURUSD_H1_2023-01.csv');
    assert.equal(encodePath('live/a b#1.csv'), 'live/a%20b%231.csv');
  });
});

describe('CSV shop extractions (docs/product.md §2.2, §2.5, §2.8)', () => {
  const extraction = (name: string, created: string) => ({
    filename: name, path: `live/${name}`, relative_path: `live/${name}`, symbol: 'EURUSD', timeframe: 'M15', start_date: '2023-01-02', end_date: '2023-01-05', kind: 'extraction', source: 'live', created_at: created,
  });

  it('the private list says when it is loading or failed, not that there is no extraction', () => {
    assert.equal(recentPlaceholder('loading', 0), 'Chargement…');
    assert.equal(recentPlaceholder('error', 0), 'Erreur de chargement');
    assert.equal(recentPlaceholder('ready', 0), 'Aucune extraction pour l’instant.');
    assert.equal(recentPlaceholder('error', 2), null, 'the files already shown stay');
  });

  it('keeps the 3 latest extractions, labelled LIVE (privé)', () => {
    const files = readOwnedCsvs({ files: [extraction('a.csv', '2026-01-01T00:00:00Z'), extraction('b.csv', '2026-01-03T00:00:00Z'), extraction('c.csv', '2026-01-02T00:00:00Z'), extraction('d.csv', '2026-01-04T00:00:00Z')] });
    const recent = recentExtractions(files);
    assert.deepEqual(recent.map((f) => f.name), ['d.csv', 'b.csv', 'c.csv']);
    assert.ok(recent.every((f) => f.live && f.label === LIVE_LABEL));
    const unlabelled = readOwnedCsvs({ files: [{ path: 'live/x.csv' }] });
    assert.equal(unlabelled[0].label, LIVE_LABEL);
  });

  it('needs pair, timeframe and both dates, start at or before end', () => {
    const ok = { symbol: 'EURUSD', timeframe: 'M15', startDate: '2023-01-02', endDate: '2023-01-05' };
    assert.equal(checkExtraction(ok), null);
    assert.equal(checkExtraction({ ...ok, symbol: ALL }), 'Renseigne paire, TF, dates.');
    assert.equal(checkExtraction({ ...ok, endDate: '' }), SHOP_MESSAGES.extractionMissing);
    assert.equal(checkExtraction({ ...ok, startDate: '2023-01-06' }), 'La date de début doit être ≤ à la date de fin.');
    assert.equal(checkExtraction({ ...ok, startDate: '2023-01-05' }), null, 'one day is fine');
  });

  it('says why an extraction or a download failed', () => {
    assert.equal(extractionErrorMessage(new HttpError(401, 'Non authentifié', null)), 'Inscrivez-vous pour lancer une extraction.');
    assert.equal(extractionErrorMessage(new HttpError(400, 'Token manquant', null)), SHOP_MESSAGES.extractionSignup);
    assert.equal(extractionErrorMessage(new HttpError(402, 'Crédits insuffisants : 1 crédit nécessaire, solde 0.', null)), 'Crédits insuffisants : 1 crédit nécessaire, solde 0.');
    assert.equal(extractionErrorMessage(new HttpError(500, undefined, null)), 'Erreur extraction');
    assert.equal(extractionErrorMessage(new TypeError('Failed to fetch')), 'Erreur réseau');
    assert.equal(extractionAnswerError({ status: 'success', files: [] }), null);
    assert.equal(extractionAnswerError({ error: 'Aucune donnée' }), 'Aucune donnée');
    assert.equal(extractionAnswerError({ status: 'error' }), 'Erreur extraction');
    // A 200 whose body is not JSON (the shared client's { nonJson, text }) is not a success.
    assert.equal(extractionAnswerError({ nonJson: true, text: '<html>Bad gateway</html>' }), 'Erreur extraction');
    assert.equal(downloadErrorMessage(new HttpError(402, 'Crédits insuffisants : 1 crédit nécessaire, solde 0.', null)), 'Crédits insuffisants : 1 crédit nécessaire, solde 0.');
    assert.equal(downloadErrorMessage(new Error('x')), 'Téléchargement impossible');
  });
});
