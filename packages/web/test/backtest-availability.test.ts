// The backtest form against what the library holds (GET /api/datasets): pickable instruments,
// timeframes, the range under the dates and the presets counted back from the last candle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SYMBOLS } from '@bt/core/catalogue';
import { availableText, parseAvailability, presetFromData, symbolChoices, timeframeChoices, usableTimeframe } from '../src/pages/backtest/availability.js';
import { dateError } from '../src/pages/backtest/dates.js';

const iso = (s: string) => new Date(s).toISOString();
const ANSWER = {
  symbols: [
    {
      symbol: 'EURUSD', first_candle: iso('2017-04-19T09:00:00Z'), last_candle: iso('2023-10-02T04:45:00Z'),
      timeframes: [
        { timeframe: 'M15', first_candle: iso('2022-10-09T22:00:00Z'), last_candle: iso('2023-10-02T04:45:00Z'), candles: 24424, ranges: [{ first_candle: iso('2022-10-09T22:00:00Z'), last_candle: iso('2023-10-02T04:45:00Z') }] },
        { timeframe: 'H1', first_candle: iso('2017-04-19T09:00:00Z'), last_candle: iso('2023-10-02T04:00:00Z'), candles: 11123, ranges: [
          { first_candle: iso('2017-04-19T09:00:00Z'), last_candle: iso('2018-02-07T15:00:00Z') }, { first_candle: iso('2022-10-09T22:00:00Z'), last_candle: iso('2023-10-02T04:00:00Z') }] },
      ],
    },
    { symbol: 'EU50', first_candle: iso('2006-01-02T08:05:00Z'), last_candle: iso('2006-01-30T16:30:00Z'), timeframes: [{ timeframe: 'M5', first_candle: iso('2006-01-02T08:05:00Z'), last_candle: iso('2006-01-30T16:30:00Z'), candles: 2142 }] },
    { symbol: 'BROKEN', timeframes: [{ timeframe: 'M5' }] },
    'nonsense',
  ],
};

describe('backtest form and the official library', () => {
  const availability = parseAvailability(ANSWER);

  it('reads the answer; runs of months are kept, a series without ranges is one run', () => {
    assert.deepEqual([...availability.keys()], ['EURUSD', 'EU50']);
    assert.equal(availability.get('EURUSD')!.timeframes.get('H1')!.ranges.length, 2);
    assert.equal(availability.get('EU50')!.timeframes.get('M5')!.ranges.length, 1);
    assert.equal(parseAvailability(null).size, 0);
    assert.equal(parseAvailability({ symbols: 'x' }).size, 0);
  });

  it('lists the instruments with data first; the others are greyed with why', () => {
    const { withData, withoutData } = symbolChoices(SYMBOLS, availability);
    assert.deepEqual(withData.map((c) => c.value).sort(), ['EU50', 'EURUSD']);
    assert.equal(withoutData.length, SYMBOLS.length - 2);
    assert.ok(withoutData.every((c) => c.disabledReason === 'pas encore de données officielles' && c.label.endsWith('— pas encore de données officielles')));
    assert.equal(symbolChoices(SYMBOLS, null).withoutData.length, 0, 'everything is offered until the answer comes');
  });

  it('greys the timeframes the instrument lacks and moves to one it has', () => {
    const tfs = timeframeChoices(['H4', 'H1', 'M30', 'M15', 'M5'], availability, 'EURUSD');
    assert.deepEqual(tfs.filter((t) => !t.disabled).map((t) => t.value), ['H1', 'M15']);
    assert.equal(tfs.find((t) => t.value === 'M5')!.label, 'M5 — pas de données');
    assert.equal(usableTimeframe(availability, 'EU50', 'M15', ['H4', 'H1', 'M30', 'M15', 'M5']), 'M5');
    assert.equal(usableTimeframe(availability, 'EURUSD', 'H1', ['H4', 'H1', 'M30', 'M15', 'M5']), 'H1');
  });

  it('says under the dates what exists, in French', () => {
    assert.equal(availableText(availability, 'EURUSD', 'H1'), 'Données disponibles en H1 (UTC) : du 19 avril 2017 au 7 février 2018, puis du 9 octobre 2022 au 2 octobre 2023.');
    assert.equal(availableText(availability, 'EURUSD', 'M5'), 'Pas de données EURUSD en M5 : disponibles en M15, H1.');
    assert.equal(availableText(availability, 'XPTUSD', 'H1'), 'Pas encore de données officielles pour XPTUSD.');
    assert.equal(availableText(null, 'EURUSD', 'H1'), null);
  });

  it('presets count back from the last candle, never before the first, and fit the 31-day limit', () => {
    const m15 = availability.get('EURUSD')!.timeframes.get('M15')!;
    assert.deepEqual(presetFromData('last7', m15), { start: '2023-09-26', end: '2023-10-02' });
    assert.deepEqual(presetFromData('last30', m15), { start: '2023-09-03', end: '2023-10-02' });
    assert.deepEqual(presetFromData('thisMonth', m15), { start: '2023-10-01', end: '2023-10-02' });
    assert.deepEqual(presetFromData('lastMonth', m15), { start: '2023-09-01', end: '2023-09-30' });
    const eu50 = availability.get('EU50')!.timeframes.get('M5')!;
    assert.deepEqual(presetFromData('last30', eu50), { start: '2006-01-02', end: '2006-01-30' }, 'starts at the first candle');
    assert.equal(presetFromData('lastMonth', eu50), null, 'December 2005 has no data');
    for (const preset of ['last7', 'last30', 'thisMonth', 'lastMonth'] as const) {
      const range = presetFromData(preset, m15)!;
      assert.equal(dateError(range.start, range.end, false), null, preset);
    }
  });
});
