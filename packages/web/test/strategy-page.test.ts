import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STRATEGIES } from '@bt/core/catalogue';
import { DEFAULT_STRAT, STRATEGY_DOCS_PATH, searchWithStrat, strategyDocHref, stratFromSearch } from '../src/pages/reference/strategyPage.js';

const q = (text: string) => new URLSearchParams(text);

describe('strategy documentation page: the strat parameter', () => {
  it('defaults to the first catalogue strategy, and asks for it to be written back', () => {
    assert.equal(DEFAULT_STRAT, STRATEGIES[0].key);
    assert.deepEqual(stratFromSearch(q('')), { key: DEFAULT_STRAT, rewrite: true, unknown: null });
    assert.deepEqual(stratFromSearch(q('strat=')), { key: DEFAULT_STRAT, rewrite: true, unknown: null });
  });

  it('reads a known key as it is, and a differently spelled one as its canonical key (rewritten)', () => {
    assert.deepEqual(stratFromSearch(q('strat=fvg_impulsive_rsi_ema')), { key: 'fvg_impulsive_rsi_ema', rewrite: false, unknown: null });
    assert.deepEqual(stratFromSearch(q('strat=%20FVG_Impulsive%20')), { key: 'fvg_impulsive', rewrite: true, unknown: null });
    for (const s of STRATEGIES) assert.equal(stratFromSearch(q(`strat=${s.key}`)).key, s.key);
  });

  it('an unknown key shows the first strategy, says which value was unknown, and is rewritten', () => {
    assert.deepEqual(stratFromSearch(q('strat=ob_pulback')), { key: DEFAULT_STRAT, rewrite: true, unknown: 'ob_pulback' });
    assert.equal(stratFromSearch(q(`strat=${'x'.repeat(500)}`)).unknown!.length, 80);
  });

  it('writes strat back keeping the other parameters; links name the canonical key', () => {
    assert.equal(searchWithStrat(q('a=1&strat=x'), 'englobante_entry').toString(), 'a=1&strat=englobante_entry');
    assert.equal(strategyDocHref('englobante_entry_rsi'), `${STRATEGY_DOCS_PATH}?strat=englobante_entry_rsi`);
    assert.equal(strategyDocHref('ENGLOBANTE_ENTRY'), `${STRATEGY_DOCS_PATH}?strat=englobante_entry`);
    assert.equal(strategyDocHref(''), STRATEGY_DOCS_PATH);
    assert.equal(strategyDocHref('us_0123456789abcdef'), STRATEGY_DOCS_PATH, 'a personal strategy has no documentation page');
  });
});
