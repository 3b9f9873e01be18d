// The batch's terminal progress view (Ink) and its plain-line twin, from the same Progress values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { render } from 'ink-testing-library';
import type { Progress } from '../src/batch/pool.js';
import { BatchProgress } from '../src/batch/progress-view.js';
import { progressLine } from '../src/batch/progress-text.js';
import { failedRow } from '../src/batch/run-row.js';

const row = { ...failedRow({ id: 7, data: 'EURUSD_H1.csv', strategy: 'fvg_pullback_multi', grid: { min_wait_candles: 2 }, sl_mode: 'external' }, ''), ok: true, error: null, trades: 549, engine_ms: 35.2 };

test('the Ink view: title, bar, done and failed, workers, speed, ETA and the last run', () => {
  const progress: Progress = { total: 48, done: 12, failed: 1, workers: 2, elapsedMs: 3000, etaMs: 9000, candles: 100_000, last: row };
  const ui = render(<BatchProgress title="bt batch plan.yaml · 48 runs" progress={progress} color={false} width={20} />);
  try {
    assert.equal(
      ui.lastFrame(),
      [
        'bt batch plan.yaml · 48 runs',
        `${'█'.repeat(5)}${'░'.repeat(15)} 12/48 (25%)`,
        '11 done · 1 failed · 2 workers · 4.0 runs/s · ETA 9 s',
        'last: fvg_pullback_multi [min_wait_candles=2] · EURUSD_H1.csv · 549 trades',
      ].join('\n'),
    );
  } finally {
    ui.unmount();
  }
});

test('the plain line of the same progress, and of a failed run', () => {
  const progress: Progress = { total: 48, done: 12, failed: 1, workers: 2, elapsedMs: 3000, etaMs: 9000, candles: 100_000, last: row };
  assert.equal(progressLine(progress), '[12/48] ok     fvg_pullback_multi [min_wait_candles=2] · EURUSD_H1.csv · 549 trades · 35 ms · ETA 9 s');
  const failed = { ...progress, last: failedRow({ id: 8, data: 'x.csv', strategy: 'fvg_impulsive', grid: {}, sl_mode: 'external' }, 'invalid symbol: "X"') };
  assert.equal(progressLine(failed), '[12/48] FAILED fvg_impulsive · x.csv: invalid symbol: "X"');
  assert.equal(progressLine({ ...progress, last: null }), null);
});
