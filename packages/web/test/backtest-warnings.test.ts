// The server's warnings of a run (docs/api.md run_backtest `warnings`) reach the result view:
// read from the answer, each once, bounded (docs/web.md "Result view").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SHOWN_WARNINGS, parseBacktestAnswer, warningsOf } from '../src/pages/backtest/result.js';

const ANSWER = { xlsx_result: 'F/F.xlsx', credits_remaining: 3 };
const IGNORED = 'Paramètre inconnu « nonsense » ignoré (la stratégie fvg_pullback_multi lit : min_wait_candles, max_wait_candles).';
const SAME_CANDLE = '3 trades ont touché le SL et un TP dans la même bougie, comptés comme SL.';

describe('the warnings of a backtest answer', () => {
  it('are carried by the parsed outcome, in the server’s order', () => {
    const parsed = parseBacktestAnswer({ ...ANSWER, warnings: [IGNORED, SAME_CANDLE] }, 'official');
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    assert.deepEqual(parsed.outcome.warnings, [IGNORED, SAME_CANDLE]);
  });

  it('are empty when the answer has none or something else', () => {
    for (const warnings of [undefined, null, 'texte', {}, [], ['', '  ']]) {
      const parsed = parseBacktestAnswer({ ...ANSWER, warnings }, 'official');
      assert.ok(parsed.ok);
      if (parsed.ok) assert.deepEqual(parsed.outcome.warnings, [], JSON.stringify(warnings));
    }
  });

  it('keep texts only, trimmed and each once', () => {
    assert.deepEqual(warningsOf({ warnings: [` ${IGNORED} `, 12, null, { text: 'x' }, IGNORED, SAME_CANDLE] }), [IGNORED, SAME_CANDLE]);
  });

  it('are bounded: at most MAX_SHOWN_WARNINGS lines, the last counting the others, and no endless sentence', () => {
    const many = Array.from({ length: 1200 }, (_, i) => `Paramètre inconnu « p${i} » ignoré.`);
    const shown = warningsOf({ warnings: many });
    assert.equal(shown.length, MAX_SHOWN_WARNINGS);
    assert.deepEqual(shown.slice(0, MAX_SHOWN_WARNINGS - 1), many.slice(0, MAX_SHOWN_WARNINGS - 1));
    assert.equal(MAX_SHOWN_WARNINGS, 10);
    assert.equal(shown.at(-1), '… et 1\u202f191 autres avertissements.', '1 200 less the 9 listed');
    const long = warningsOf({ warnings: ['x'.repeat(100_000)] });
    assert.equal(long[0].length, 500);
    assert.ok(long[0].endsWith('…'));
  });
});
