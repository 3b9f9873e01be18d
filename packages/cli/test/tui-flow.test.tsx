// The TUI driven through a whole pick → run → browse flow with ink-testing-library, on real data
// and the real engine; and `bt tui` as a subprocess for its bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { render } from 'ink-testing-library';
import { runBacktest } from '@bt/core/backtest';
import { formatPercentCell } from '@bt/core/format';
import { readCandlesFile } from '@bt/core/node';
import { App } from '../src/tui/app.js';
import { realDeps } from '../src/tui/deps.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, fixture, readerMessage, tempDir } from './helpers.js';

const KEY = { down: '\u001B[B', up: '\u001B[A', right: '\u001B[C', enter: '\r', backspace: '\u007F', escape: '\u001B' };

/**
 * Waits for a frame, then lets the event loop turn: React runs the effects that attach the
 * keyboard handlers after the frame is drawn (scheduled on the event loop, not on a timer), and
 * a key written before that would be lost.
 */
async function until(frame: () => string | undefined, check: (text: string) => boolean, what: string, timeout = 15_000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const text = frame() ?? '';
    if (check(text)) {
      for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 20));
      return frame() ?? text;
    }
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${what}; last frame:\n${text}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

test('pick a file, a symbol, a strategy and a parameter, run, then browse every table with the keyboard', async () => {
  const ui = render(<App deps={realDeps()} dir={fixture('official')} />);
  const frame = () => ui.lastFrame();
  const press = async (key: string, next: (text: string) => boolean, what: string) => {
    ui.stdin.write(key);
    return until(frame, next, what);
  };
  try {
    // 1. Data file: the folder's candle files, the first one highlighted.
    await until(frame, (t) => t.includes('› EURUSD_H1_2017-2018.csv') && t.includes('EURUSD_H1_slice.xlsx'), 'the file list');
    // 2. Symbol: found from the file name, Enter takes it.
    await press(KEY.enter, (t) => t.includes('Symbol') && t.includes('› EURUSD  EUR/USD · pip 0.0001'), 'the symbol step');
    assert.match(frame()!, /5,000 candles · H1/);
    // 3. Strategy: two down, Enter.
    await press(KEY.enter, (t) => t.includes('› ob_pullback_pure  OB pullback pur'), 'the strategy list');
    await press(KEY.down, (t) => t.includes('› ob_pullback_pure_ema_simple '), 'cursor on the second strategy');
    await press(KEY.down, (t) => t.includes('› ob_pullback_pure_rsi '), 'cursor on the third strategy');
    await press(KEY.enter, (t) => t.includes('Parameters · ob_pullback_pure_rsi · EURUSD'), 'the parameter form');
    // 4. Parameters: rsi_threshold 40 → 45, sl and tp1 to 20.
    const escape = (text: string) => text.replace(/[()]/g, '\\$&');
    const moveTo = async (label: string) => {
      for (let i = 0; i < 20 && !new RegExp(`› ${escape(label)}( |$)`, 'm').test(frame()!); i++) {
        const before = frame();
        await press(KEY.down, (t) => t !== before, `cursor moving to ${label}`);
      }
      assert.match(frame()!, new RegExp(`› ${escape(label)}( |$)`, 'm'));
    };
    const edit = async (label: string, value: string) => {
      await moveTo(label);
      await press(KEY.enter, (t) => t.includes('editing: Enter keeps, Esc cancels'), `editing ${label}`);
      for (let i = 0; i < 6; i++) ui.stdin.write(KEY.backspace);
      for (const ch of value) ui.stdin.write(ch);
      await until(frame, (t) => new RegExp(`› ${escape(label)} +${value} +editing`).test(t), `typing ${value}`);
      await press(KEY.enter, (t) => new RegExp(`› ${escape(label)} +${value} `).test(t) && !t.includes('editing:'), `${label} = ${value}`);
    };
    await edit('rsi_threshold', '45');
    await edit('sl (pips)', '20');
    await edit('tp1 (pips)', '20');
    await moveTo('▶ Run');
    // 5. Run: the real engine on the file.
    const results = await press(KEY.enter, (t) => t.includes('1 Global') && t.includes('Winrate TP1'), 'the results');
    const { candles } = await readCandlesFile(EURUSD_H1);
    const core = await runBacktest(candles, { strategy: 'ob_pullback_pure_rsi', params: { rsi_threshold: 45 }, symbol: 'EURUSD', slPips: 20, tp1Pips: 20 });
    const g = core.statistics.global;
    assert.ok(results.includes('EURUSD H1 · ob_pullback_pure_rsi · 2017-04-19 → 2018-02-07 · SL 20 / TP1 20 / TP2 40 pips'));
    assert.match(results, new RegExp(`Trades +${g.trades}\\n`));
    assert.match(results, new RegExp(`Winrate TP1 +${formatPercentCell(g.tp1.winrate).replace('.', '\\.')}\\n`));
    // 6. Browse: sessions, hours (scrolling), weekdays, golden hours, by number and by arrow.
    await press('2', (t) => t.includes('Londres/New York') && t.includes('Heures (UTC)'), 'the sessions tab');
    await press('3', (t) => t.includes('Heure (UTC)') && /rows 1-14 of 24/.test(t), 'the hours tab');
    await press(KEY.down, (t) => /rows 2-15 of 24/.test(t), 'scrolling the hours');
    await press(KEY.right, (t) => t.includes('Jour') && t.includes('Lun') && t.includes('Dim'), 'the weekdays tab');
    const golden = await press(KEY.right, (t) => t.includes('Résolus') && !t.includes('Lun'), 'the golden hours tab');
    const best = core.golden_hours.golden_hours[0];
    if (best) assert.match(golden, new RegExp(`${String(best.hour).padStart(2, '0')}h +${best.trades} +${formatPercentCell(best.TP1).replace('.', '\\.')}`));
    else assert.match(golden, /no hour has/);
    await press('1', (t) => t.includes('Indicateur') && /rows 1-14 of 22/.test(t), 'back to the global tab');
    // 7. Back to the parameters: the values typed are kept.
    await press('b', (t) => t.includes('Parameters · ob_pullback_pure_rsi') && /rsi_threshold +45 /.test(t), 'the form again');
  } finally {
    ui.unmount();
  }
});

test('the form refuses a bad value with core\'s message and stays', async () => {
  const ui = render(<App deps={realDeps()} dir={fixture('official')} data={EURUSD_H1} />);
  const frame = () => ui.lastFrame();
  try {
    await until(frame, (t) => t.includes('› EURUSD  EUR/USD'), 'the symbol step (file given)');
    ui.stdin.write(KEY.enter);
    await until(frame, (t) => t.includes('› ob_pullback_pure '), 'the strategy list');
    ui.stdin.write(KEY.enter);
    await until(frame, (t) => t.includes('› min_wait_candles '), 'the form');
    ui.stdin.write(KEY.enter);
    await until(frame, (t) => t.includes('editing: Enter keeps, Esc cancels'), 'editing');
    ui.stdin.write(KEY.backspace);
    for (const ch of '30') ui.stdin.write(ch);
    await until(frame, (t) => /› min_wait_candles +30 +editing/.test(t), 'typed 30');
    ui.stdin.write(KEY.enter);
    await until(frame, (t) => /› min_wait_candles +30 /.test(t), 'value kept as text');
    ui.stdin.write('r');
    await until(frame, (t) => t.includes('bt: invalid min_wait_candles: 30 (expected at most max_wait_candles (20))'), 'the error');
    assert.ok(frame()!.includes('Parameters · ob_pullback_pure'));
  } finally {
    ui.unmount();
  }
});

test('a malformed file: the reader\'s message in red, and the file list stays', async () => {
  const tmp = tempDir();
  const bad = join(tmp.dir, 'EURUSD_H1_bad.csv');
  writeFileSync(bad, 'Datetime,Open,High,Low,Close,Volume\n2024-01-01 00:00:00+00:00,1.1,1.0,1.2,1.15,10\n');
  const ui = render(<App deps={realDeps()} dir={tmp.dir} />);
  const frame = () => ui.lastFrame();
  try {
    await until(frame, (t) => t.includes('› EURUSD_H1_bad.csv'), 'the file list');
    ui.stdin.write(KEY.enter);
    const message = await readerMessage(bad);
    const text = await until(frame, (t) => t.includes('bt: '), 'the error');
    assert.ok(text.includes(`bt: ${message.split('\n')[0]}`), text);
    assert.ok(text.includes('line 2, column High: High 1 is below Low 1.2'), text);
    assert.ok(text.includes('› EURUSD_H1_bad.csv'));
  } finally {
    ui.unmount();
    tmp.remove();
  }
});

test('bt tui subprocess: flags and files checked before the screen; no terminal is a usage error', async () => {
  assert.deepEqual(await bt(['tui', '--data', fixture('nope.csv')]), { code: 1, stdout: '', stderr: `bt: cannot read ${fixture('nope.csv')}: no such file\n` });
  assert.deepEqual(await bt(['tui', '--dir', fixture('nope')]), { code: 1, stdout: '', stderr: `bt: cannot read ${fixture('nope')}: no such file\n` });
  assert.deepEqual(await bt(['tui', '--dir', EURUSD_H1]), { code: 1, stdout: '', stderr: `bt: cannot read ${EURUSD_H1}: not a folder\n` });
  assert.deepEqual(await bt(['tui', '--utc-offset', 'CET']), { code: 2, stdout: '', stderr: 'bt: invalid --utc-offset: "CET" (expected an offset such as +02:00, -05:00, +0530, Z or UTC, or minutes east of UTC)\n' });
  assert.deepEqual(await bt(['tui', '--data', EURUSD_H1]), { code: 2, stdout: '', stderr: 'bt: bt tui needs an interactive terminal (stdin and stdout must be a TTY); for scripts use bt backtest\n' });
});
