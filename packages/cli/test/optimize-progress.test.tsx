// The progress of bt optimize and bt walk-forward: the shared Ink view counting combinations with
// the best combination so far below it, from the same state as the batch's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { render } from 'ink-testing-library';
import { ProgressView } from '../src/progress/view.js';
import { duration } from '../src/progress/text.js';

test('the view counts combinations and shows the best so far', () => {
  const progress = { total: 10_000, done: 2_500, failed: 3, workers: 2, elapsedMs: 5_000, etaMs: 15_000 };
  const ui = render(<ProgressView title="bt optimize fvg_pullback_multi · 10,000 combinations" progress={progress} unit="combinations" last="best so far: sl_pips=10 tp1_pips=20 · expectancy 0.120" color={false} width={20} />);
  try {
    assert.equal(
      ui.lastFrame(),
      [
        'bt optimize fvg_pullback_multi · 10,000 combinations',
        `${'█'.repeat(5)}${'░'.repeat(15)} 2500/10000 (25%)`,
        '2497 done · 3 failed · 2 workers · 500.0 combinations/s · ETA 15 s',
        'best so far: sl_pips=10 tp1_pips=20 · expectancy 0.120',
      ].join('\n'),
    );
  } finally {
    ui.unmount();
  }
  assert.deepEqual([duration(null), duration(59_400), duration(61_000), duration(3_720_000)], ['?', '59 s', '1 min 01 s', '1 h 02 min']);
});
