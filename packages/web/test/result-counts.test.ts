// Counts on the result view and the Monte Carlo panel are grouped the French way
// (docs/web.md, "Numbers and labels"): a year of trades reads '1 004', not '1004'.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goldenHoursLabel, tradesCountText } from '../src/features/results/goldenText.js';
import { histogramAxes, monteCarloIntro, monteCarloValue } from '../src/features/montecarlo/texts.js';

const NNBSP = '\u202f';

describe('counts on the result view', () => {
  it('groups the trades count beside the heading', () => {
    assert.equal(tradesCountText(1004), `(1${NNBSP}004)`);
    assert.equal(tradesCountText(12345), `(12${NNBSP}345)`);
    assert.equal(tradesCountText(247), '(247)');
  });

  it('groups the golden hours’ minimum of resolved trades', () => {
    assert.equal(goldenHoursLabel(1500), `Golden hours (UTC, 1${NNBSP}500 trades résolus min.)`);
    assert.equal(goldenHoursLabel(10), 'Golden hours (UTC, 10 trades résolus min.)');
    assert.equal(goldenHoursLabel(null), 'Golden hours (UTC)');
  });
});

describe('the Monte Carlo panel’s numbers', () => {
  it('groups the draws and the length of the sequence, with a space that does not break', () => {
    const text = monteCarloIntro('bootstrap', 1004);
    assert.equal(text, `10${NNBSP}000 tirages avec remise des 1${NNBSP}004 R nets de la séquence (graine 1) : ce que la chance seule peut faire du même avantage.`);
    assert.match(monteCarloIntro('shuffle', 8000), new RegExp(`^10${NNBSP}000 tirages dans un ordre aléatoire des 8${NNBSP}000 R nets`));
    assert.doesNotMatch(text, /\d{4}/, 'no ungrouped count');
  });

  it('writes percentiles as whole counts or R with 2 decimals, grouped', () => {
    assert.equal(monteCarloValue(1234, true), `1${NNBSP}234`);
    assert.equal(monteCarloValue(7, true), '7');
    assert.equal(monteCarloValue(-1234.5, false), `-1${NNBSP}234,50`);
    assert.equal(monteCarloValue(3, false), '3,00');
  });

  it('writes the histogram’s ticks the French way, not Plot’s English default', () => {
    const { x, y } = histogramAxes('Drawdown max (R)');
    assert.equal(x.label, 'Drawdown max (R)');
    assert.deepEqual([5, 5.2, 7.8].map(x.tickFormat), ['5', '5,2', '7,8']);
    assert.equal(x.tickFormat(-1200), `-1${NNBSP}200`);
    assert.equal(y.label, 'Part des tirages (%)');
    assert.deepEqual([0, 2.5, 10].map(y.tickFormat), ['0', '2,5', '10']);
  });
});
