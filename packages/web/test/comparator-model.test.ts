import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_COMPARED,
  analysisDetails,
  isSelectionDisabled,
  preselectedIds,
  readAnalyses,
  searchAnalyses,
  toggleSelection,
} from '../src/features/compare/analyses.js';
import {
  COMPARE_PALETTE,
  FRENCH_DAYS,
  chartHeight,
  chartPoints,
  chartScrolls,
  chartWidth,
  formatValue,
  frenchDayLabel,
  gridDivisions,
  radarGrid,
  radarPolygons,
  readCompareAnswer,
  seriesColor,
  tableScrolls,
  valueScale,
} from '../src/features/compare/chartModel.js';

/** Items as GET /api/compare/options sends them (docs/api.md), with the alias fields some servers use. */
const options = {
  items: [
    { id: 12, label: 'EURUSD M15 · FVG pullback multi · 2023-01-01 → 2023-01-31', pair: 'EURUSD', period: '2023-01-01 → 2023-01-31', timeframe: 'm15', strategy: 'fvg_pullback_multi', strategy_label: 'FVG pullback multi', trades_count: 13, winrate_tp1: 0.46 },
    { id: 13, symbol: 'EU50', period: '2006-01-02 → 2006-01-31', timeframe: 'M5', strategy: 'ob_pullback_pure', trades: 40, tp1_winrate: 0.5 },
    { id: 14, label: 'GBPUSD H1 · Englobante · 2024-03', pair: 'GBPUSD', period: '2024-03-01 → 2024-03-31', timeframe: 'H1', strategy: 'englobante_entry' },
    { id: 15, pair: 'EURUSD', timeframe: 'H1', strategy: 'fvg_impulsive', period: '2017-05-01 → 2017-05-31', trades_count: 7 },
    { id: 16, pair: 'EURUSD', timeframe: 'H4', strategy: 'fvg_impulsive', period: '2017-06-01 → 2017-06-30', trades_count: 3 },
    { label: 'no id: ignored' },
  ],
};

describe('comparator list (docs/product.md §2.2, §2.3, §2.4)', () => {
  it('reads every analysis with an id, whatever the field names; timeframe in upper case', () => {
    const list = readAnalyses(options);
    assert.deepEqual(list.map((a) => a.id), ['12', '13', '14', '15', '16']);
    assert.deepEqual([list[0].pair, list[0].timeframe, list[0].strategy, list[0].trades], ['EURUSD', 'M15', 'FVG pullback multi', 13]);
    assert.deepEqual([list[1].pair, list[1].trades, list[1].winrateTp1], ['EU50', 40, 0.5]);
    assert.equal(list[2].trades, null);
    assert.ok(list[1].label.includes('EU50') && list[1].label.includes('M5'), 'a label is built when the server gives none');
    assert.deepEqual(readAnalyses([{ id: 'a' }]).map((a) => a.id), ['a'], 'a bare array is accepted too');
    assert.deepEqual(readAnalyses({ detail: 'x' }), []);
  });

  it('searches label, pair and period, accents and case ignored, every word must match', () => {
    const list = readAnalyses(options);
    assert.deepEqual(searchAnalyses(list, 'eurusd').map((a) => a.id), ['12', '15', '16']);
    assert.deepEqual(searchAnalyses(list, '2017-06').map((a) => a.id), ['16']);
    assert.deepEqual(searchAnalyses(list, 'eu50 2006').map((a) => a.id), ['13']);
    assert.deepEqual(searchAnalyses(list, 'ENGLOBANTE').map((a) => a.id), ['14']);
    assert.equal(searchAnalyses(list, '   ').length, 5);
    assert.deepEqual(searchAnalyses(list, 'nothing like this'), []);
  });

  it('writes periods and trade counts the French way: rows, search, labels and the series of the chart', () => {
    const list = readAnalyses(options);
    // The server's label ends with its ISO period: the list and the legend read it in French.
    assert.equal(list[0].label, 'EURUSD M15 · FVG pullback multi · 1er–31 janvier 2023');
    assert.equal(analysisDetails(list[0]), '1er–31 janvier 2023 · 13 trades');
    assert.equal(analysisDetails({ period: '2023-01-16 → 2023-02-14', trades: 1004 }), '16 janvier\u2009–\u200914 février 2023 · 1\u202f004 trades');
    assert.equal(analysisDetails({ period: '', trades: 1 }), '1 trade');
    assert.equal(analysisDetails({ period: '', trades: null }), '— trades');
    // Searched as shown ('mai') and as the API writes it ('2017-05').
    assert.deepEqual(searchAnalyses(list, 'mai').map((a) => a.id), ['15']);
    assert.deepEqual(searchAnalyses(list, 'janvier 2023').map((a) => a.id), ['12']);
    assert.deepEqual(searchAnalyses(list, '2017-05').map((a) => a.id), ['15']);
    const model = readCompareAnswer({ metric: 'winrate_tp1', buckets: ['Winrate TP1'], series: [{ analysis_id: 12, label: 'EURUSD M15 · FVG pullback multi · 2023-01-01 → 2023-01-31', values: [0.5] }], value_type: 'percentage' }, ['12']);
    assert.equal(model.series[0].label, 'EURUSD M15 · FVG pullback multi · 1er–31 janvier 2023');
  });

  it('selects 1 to 4: a fifth is refused and the unticked rows are disabled at 4', () => {
    let selected: string[] = [];
    for (const id of ['12', '13', '14', '15']) selected = toggleSelection(selected, id);
    assert.equal(selected.length, MAX_COMPARED);
    assert.deepEqual(toggleSelection(selected, '16'), selected, 'the fifth does not get in');
    assert.equal(isSelectionDisabled(selected, '16'), true);
    assert.equal(isSelectionDisabled(selected, '12'), false, 'a ticked row can still be unticked');
    selected = toggleSelection(selected, '13');
    assert.deepEqual(selected, ['12', '14', '15']);
    assert.equal(isSelectionDisabled(selected, '16'), false);
  });

  it('the ids parameter keeps only known ids, without repeats, at most 4', () => {
    const list = readAnalyses(options);
    assert.deepEqual(preselectedIds('16, 99,12,12,13,14,15', list), ['16', '12', '13', '14']);
    assert.deepEqual(preselectedIds('', list), []);
    assert.deepEqual(preselectedIds(null, list), []);
    assert.deepEqual(preselectedIds('abc', list), []);
  });
});

/** A POST /api/compare/data answer shaped as docs/api.md gives it. */
const sessionAnswer = {
  metric: 'session',
  buckets: ['Asie', 'Londres', 'Londres/New York', 'New York', 'Hors session'],
  series: [
    { analysis_id: 13, label: 'EU50 M5', values: [0.25, null, 0.5, 1, 0] },
    { analysis_id: 12, label: 'EURUSD M15', values: [0.5, 1, 0.3333, 0.5, null] },
  ],
  value_type: 'percentage',
  precision: 2,
};

describe('comparator chart model (docs/product.md §2.7, §2.9)', () => {
  it('matches series to the selection order, keeps their palette colour and turns fractions into percents', () => {
    const model = readCompareAnswer(sessionAnswer, ['12', '13']);
    assert.deepEqual(model.series.map((s) => s.id), ['12', '13']);
    assert.deepEqual(model.series.map((s) => s.color), [COMPARE_PALETTE[0], COMPARE_PALETTE[1]]);
    assert.deepEqual(model.series[0].values.map((v) => (v === null ? null : Math.round(v * 100) / 100)), [50, 100, 33.33, 50, null]);
    assert.equal(formatValue(model.series[0].values[2], model), '33,33\u202f%');
    assert.equal(formatValue(null, model), '—');
    // Points skip missing values: 4 + 4 of the 10 cells.
    assert.equal(chartPoints(model).length, 8);
  });

  it('counts stay counts, with precision 0 and 4 grid divisions covering the maximum', () => {
    const model = readCompareAnswer({ metric: 'trades_count', buckets: ['Trades'], series: [{ analysis_id: 1, label: 'A', values: [13] }, { analysis_id: 2, label: 'B', values: [40] }], value_type: 'count', precision: 0 }, ['1', '2']);
    assert.deepEqual(model.series.map((s) => s.values[0]), [13, 40]);
    assert.equal(formatValue(40, model), '40');
    assert.equal(gridDivisions('count'), 4);
    const scale = valueScale(model);
    assert.equal(scale.ticks.length, 5);
    assert.ok(scale.max >= 40 && scale.max % 4 === 0);
    assert.deepEqual(valueScale(readCompareAnswer(sessionAnswer, ['12', '13'])), { max: 100, ticks: [0, 20, 40, 60, 80, 100] }, '5 divisions for percentages');
  });

  it('day buckets read Lun to Dim whatever the server sends', () => {
    assert.deepEqual(FRENCH_DAYS, ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
    assert.deepEqual(['Monday', 'tue', 'Mercredi', 'jeu.', 4, 'Sat', 'Dim'].map(frenchDayLabel), ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
    const model = readCompareAnswer({ metric: 'day', buckets: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], series: [], value_type: 'percentage' }, []);
    assert.deepEqual(model.buckets, FRENCH_DAYS);
  });

  it('legend colours cycle modulo 6; identical labels are told apart', () => {
    assert.equal(COMPARE_PALETTE.length, 6);
    assert.equal(seriesColor(6), seriesColor(0));
    assert.equal(seriesColor(7), seriesColor(1));
    const twins = readCompareAnswer({ metric: 'winrate_tp1', buckets: ['TP1'], series: [{ analysis_id: 1, label: 'Same', values: [0.5] }, { analysis_id: 2, label: 'Same', values: [0.4] }] }, ['1', '2']);
    assert.deepEqual(twins.series.map((s) => s.label), ['Same', 'Same (2)']);
  });

  it('size rules: height ≥ 360 and window − 280, width ≥ 300, horizontal scroll below 900 px, table scroll past 8 buckets', () => {
    assert.equal(chartHeight(500), 360);
    assert.equal(chartHeight(1000), 720);
    assert.equal(chartWidth(1200, 'bars'), 1200);
    assert.equal(chartWidth(900, 'line'), 900);
    assert.equal(chartScrolls(900, 'bars'), false);
    assert.equal(chartScrolls(600, 'bars'), true);
    assert.equal(chartWidth(600, 'bars'), 900);
    assert.equal(chartWidth(200, 'radar'), 300);
    assert.equal(chartWidth(600, 'radar'), 600);
    assert.equal(tableScrolls(8), false);
    assert.equal(tableScrolls(9), true);
    assert.equal(tableScrolls(24), true);
  });

  it('radar: one closed polygon per series on unit spokes, missing values at the centre', () => {
    const model = readCompareAnswer(sessionAnswer, ['12', '13']);
    const polygons = radarPolygons(model);
    assert.equal(polygons.length, 2);
    for (const ring of polygons) {
      assert.equal(ring.length, model.buckets.length + 1);
      assert.deepEqual(ring.at(-1), ring[0], 'closed');
    }
    const first = polygons[0];
    // 50 % on the first (upward) axis: half the radius, straight up.
    assert.ok(Math.abs(first[0].x) < 1e-9 && Math.abs(first[0].y + 0.5) < 1e-9);
    // 100 % on the second axis: on the unit circle.
    assert.ok(Math.abs(Math.hypot(first[1].x, first[1].y) - 1) < 1e-9);
    assert.deepEqual([Math.abs(first[4].x), Math.abs(first[4].y), first[4].value], [0, 0, null]);
    const grid = radarGrid(model);
    assert.equal(grid.rings.length, 5, 'one ring per division');
    assert.equal(grid.spokes.length, 5);
    assert.ok(grid.spokes.every((s) => Math.abs(Math.hypot(s.x, s.y) - 1) < 1e-9));
  });
});
