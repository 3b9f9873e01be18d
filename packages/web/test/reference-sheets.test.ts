import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STRATEGIES, STRATEGY_DOCS, SYMBOLS, TO_DOCUMENT, strategyDoc } from '@bt/core/catalogue';
import { readLibrary } from '../src/features/csv/library.js';
import { NO_OFFICIAL_DATA, availableDataText, spansFromLibrary } from '../src/pages/reference/pairs/available.js';
import { forexPipValue } from '../src/pages/reference/pairs/forex.js';
import { PAIR_SHEETS, pairSheet, sheetGaps } from '../src/pages/reference/pairs/index.js';
import { frenchNumber, specLines } from '../src/pages/reference/pairs/specLines.js';

/**
 * The reference page's sheets against the catalogue as it is when the test runs: an instrument or
 * a strategy added to the catalogue without its sheet fails here, naming it.
 */
describe('reference sheets: every catalogue symbol and strategy', () => {
  it('every catalogue symbol has a complete pair sheet', () => {
    const incomplete = SYMBOLS.map((s) => ({ symbol: s.symbol, gaps: sheetGaps(pairSheet(s.symbol)) })).filter((s) => s.gaps.length > 0);
    assert.deepEqual(incomplete, [], `pair sheets to write or complete:\n${incomplete.map((s) => `${s.symbol}: ${s.gaps.join(', ')}`).join('\n')}`);
    for (const symbol of SYMBOLS) {
      const sheet = pairSheet(symbol.symbol)!;
      const lines = specLines(symbol, sheet, 'données');
      assert.deepEqual(lines.map((l) => l.label), ['Classe d’actif', 'Pip', 'Sessions et volatilité', 'Données dans bt'], symbol.symbol);
      assert.ok(lines.every((l) => l.text.trim() && !l.text.includes('undefined')), symbol.symbol);
      assert.ok(sheet.summary.length >= 80, `${symbol.symbol}: a real summary`);
      for (const text of [sheet.summary, sheet.pipValue, sheet.sessions, sheet.volatility, ...sheet.notes, ...sheet.advice]) {
        assert.doesNotMatch(text, /à compléter|TODO|lorem/i, symbol.symbol);
      }
    }
  });

  it('every sheet belongs to a catalogue symbol (no sheet under a misspelt key)', () => {
    const known = new Set(SYMBOLS.map((s) => s.symbol));
    assert.deepEqual(Object.keys(PAIR_SHEETS).filter((k) => !known.has(k)), []);
    assert.equal(pairSheet('constructor'), undefined);
    assert.deepEqual(sheetGaps(undefined), ['fiche']);
  });

  it('every catalogue strategy has a complete sheet: none left "À documenter."', () => {
    assert.equal(STRATEGY_DOCS.length, STRATEGIES.length);
    const toDocument = STRATEGIES.filter((s) => {
      const doc = strategyDoc(s.key);
      return !doc || doc.missing.length > 0 || [doc.summary, doc.subtitle, ...doc.parameters.map((p) => p.description)].includes(TO_DOCUMENT) || doc.entryConditions.length === 0;
    }).map((s) => s.key);
    assert.deepEqual(toDocument, [], `strategies à documenter: ${toDocument.join(', ')}`);
    for (const s of STRATEGIES) assert.deepEqual(strategyDoc(s.key)!.parameters.map((p) => p.name), [...s.params], s.key);
  });
});

describe('pair sheet facts', () => {
  it('pip values per standard lot follow the quote currency', () => {
    assert.equal(forexPipValue('EUR', 'USD'), '10 USD par lot standard (100 000 EUR), 1 USD par mini-lot (10 000 EUR).');
    assert.match(forexPipValue('USD', 'JPY'), /^1 000 JPY par lot standard \(100 000 USD\).*1 000 ÷ le cours USD\/JPY/);
    assert.match(forexPipValue('EUR', 'GBP'), /^10 GBP par lot standard \(100 000 EUR\)/);
    assert.match(pairSheet('GBPJPY')!.pipValue, /^1 000 JPY/);
  });

  it('numbers in French without float noise', () => {
    assert.equal(frenchNumber(0.0001), '0,0001');
    assert.equal(frenchNumber(0.0001 * 100), '0,01');
    assert.equal(frenchNumber(0.005 * 100), '0,5');
    assert.equal(frenchNumber(1), '1');
    const [, pip] = specLines(SYMBOLS.find((s) => s.symbol === 'XAUUSD')!, pairSheet('XAUUSD')!, '');
    assert.match(pip.text, /^1 pip = 0,1 de prix ; 100 pips \(le SL par défaut\) = 10\. Valeur : /);
    const eurusd = SYMBOLS.find((s) => s.symbol === 'EURUSD')!;
    assert.match(specLines(eurusd, pairSheet('EURUSD')!, '')[1].text, new RegExp(`Écart acheteur-vendeur typique : ${frenchNumber(eurusd.typicalSpreadPips!)} pip`));
    assert.doesNotMatch(specLines({ ...eurusd, typicalSpreadPips: null }, pairSheet('EURUSD')!, '')[1].text, /Écart/, 'no figure where the catalogue has none');
  });

  it('the data line: timeframes with the same months together, H4 first; nothing yet says so', () => {
    const file = (tf: string, month: string, rows = 10) => ({ symbol: 'EURUSD', timeframe: tf, path: `EURUSD/${tf}/EURUSD_${tf}_${month}.csv`, period: month, rows });
    const files = readLibrary({
      files: [
        ...['2017-04', '2017-05', '2023-10'].flatMap((m) => [file('H1', m), file('H4', m)]),
        file('M15', '2023-01'),
        { ...file('H1', '2023-01'), symbol: 'GBPUSD', path: 'GBPUSD/H1/GBPUSD_H1_2023-01.csv' },
      ],
    });
    const spans = spansFromLibrary(files, 'EURUSD');
    assert.deepEqual(spans.map((s) => [s.timeframe, s.firstMonth, s.lastMonth, s.months, s.candles]), [
      ['H4', '2017-04', '2023-10', 3, 30],
      ['H1', '2017-04', '2023-10', 3, 30],
      ['M15', '2023-01', '2023-01', 1, 10],
    ]);
    assert.equal(availableDataText(spans), 'H4 et H1 : 3 mois entre avril 2017 et octobre 2023 ; M15 : janvier 2023 (1 mois) (UTC).');
    assert.equal(availableDataText(spansFromLibrary(files, 'XAUUSD')), NO_OFFICIAL_DATA);
  });
});
