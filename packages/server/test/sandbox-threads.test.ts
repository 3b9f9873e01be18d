// A personal strategy's request and answer written and read on the engine threads
// (src/strategies/sandbox/codec.ts, src/jobs/thread.ts): the same bytes and verdicts as
// in-process, the caller's candles untouched, the threads used for a backtest-sized call only,
// and the checked signals carried as columns to the engine, in-process or through the queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { headCandles } from '@bt/core';
import { readCandlesCsv, withExtraColumns, type Candles } from '@bt/core/candles';
import { EnginePool } from '../src/jobs/pool.js';
import { engineRequestOf, queuedRequest } from '../src/jobs/queued-request.js';
import type { EngineRequest } from '../src/jobs/task.js';
import {
  decodeSandboxAnswer,
  encodeSandboxInput,
  threadedCodec,
  THREAD_MIN_ANSWER_BYTES,
  THREAD_MIN_CANDLES,
  type ExpectedSignals,
  type SandboxCodec,
  type SandboxInput,
} from '../src/strategies/sandbox/codec.js';
import { PythonSandbox } from '../src/strategies/sandbox/sandbox.js';
import { signalColumnsOf, signalColumnsText, signalCount, signalsOfColumns } from '../src/strategies/sandbox/signal-columns.js';
import { TEST_DIALECT } from './support/db.js';
import { testSandboxSetup } from './support/sandbox.js';
import { fixture } from './support/work.js';

const ONCE = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;

/** A real series with an extra column that has gaps (NaN), as the library's RSI_14 starts. */
const series: Candles = (() => {
  const read = readCandlesCsv(fixture('official/EURUSD_H1_2017-2018.csv')).candles;
  const rsi = Float64Array.from(read.close, (c, i) => (i < 14 ? NaN : Math.round(c * 5000) / 100));
  return withExtraColumns({ ...read, symbol: 'EURUSD', timeframe: 'H1' }, { RSI_14: rsi });
})();
const META = { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 };
const HEADER = {
  source: 'def detect_x(candles, params):\n    return []\n',
  mode: 'run',
  checks: 'all',
  limits: { cpu_seconds: 5, memory_bytes: 1 << 29, processes: 0, max_signals: 200_000, max_nodes: 50_000 },
  params: { lookback: 20, label: 'é' },
  zone_required: false,
};

/** A strategy that signals on every candle, alternating sides, with a stop: an answer of hundreds of KB. */
const EVERY_CANDLE = `def detect_every(candles, params):
    lows = candles["low"]
    return [{"index": i, "side": "buy" if i % 2 else "sell", "stop": lows[i] - 0.001} for i in range(len(lows))]
`;

/** The pool's codec, counting the calls that reached its threads. */
function counting(codec: SandboxCodec) {
  const calls = { input: 0, answer: 0 };
  const counted: SandboxCodec = {
    input: (input) => (calls.input++, codec.input(input)),
    answer: (stdout, expected) => (calls.answer++, codec.answer(stdout, expected)),
  };
  return { calls, counted };
}

describe('the sandbox request and answer on the engine threads', { skip: ONCE }, () => {
  const pool = new EnginePool(1);
  after(() => pool.close());
  let setup: Awaited<ReturnType<typeof testSandboxSetup>>;
  before(async () => {
    setup = await testSandboxSetup();
    assert.ok(setup.ready, 'the sandbox is ready (bubblewrap is installed by npm test)');
  });

  it("writes the request on a thread: the same bytes as in-process, the caller's candles untouched", async () => {
    assert.ok(series.length >= THREAD_MIN_CANDLES, `a series the threads take: ${series.length} candles`);
    const input: SandboxInput = { header: HEADER, columns: series, meta: META };
    const expected = encodeSandboxInput(input);
    const bytes = await pool.sandbox.input(input);
    assert.equal(Buffer.compare(bytes, expected), 0);
    const text = new TextDecoder().decode(bytes);
    const parsed = JSON.parse(text);
    assert.equal(parsed.candles.close.length, series.length);
    assert.equal(parsed.candles.RSI_14[0], null, 'a gap is null, as JSON has no NaN');
    assert.equal(parsed.candles.pip_size, 0.0001);
    assert.equal(parsed.params.label, 'é');
    // Copies crossed to the thread: the caller's columns still hold their values.
    assert.equal(series.close.length, series.length);
    assert.equal(series.extra.RSI_14.length, series.length);
    // A static check has no candles at all.
    assert.equal(Buffer.compare(await pool.sandbox.input({ header: HEADER }), encodeSandboxInput({ header: HEADER })), 0);
  });

  it('reads answers on a thread with the same verdicts as in-process, forged ones included', async () => {
    const expected: ExpectedSignals = { candleCount: 100, zoneRequired: false, maxSignals: 3 };
    const info = { function: 'detect_x', detect_id: 'x', line: 1, meta: {} };
    const answers: [string, unknown, ExpectedSignals?][] = [
      ['signals of every form', { ok: true, info, elapsed_ms: 12.5, signals: [{ index: 3, side: 'buy' }, { index: 7, side: 'sell', stop: 1.5, extra: 'x' }, { index: 9, side: 'buy', zone: { top: 2, bottom: 1, more: [1] } }] }],
      ['no signals', { ok: true, info }],
      ['a refusal with its details', { ok: false, error: { code: 'bad_output', message: 'index', line: null, position: 2, detail: '99', n: 50, kind: 'not a detail' } }],
      ['a refusal whose message and details are not plain', { ok: false, error: { code: ['x'], message: 'm'.repeat(100_000), line: -3, detail: { a: [1] }, column: Infinity } }],
      ['a description missing its names', { ok: true, info: { function: 'detect_x', meta: {} }, signals: [] }],
      ['an unknown refusal', { ok: false }],
      ['not an object', 5],
      ['too many signals', { ok: true, info, signals: [{ index: 1, side: 'buy' }, { index: 1, side: 'buy' }, { index: 1, side: 'buy' }, { index: 1, side: 'buy' }] }],
      ['an index past the candles', { ok: true, info, signals: [{ index: 100, side: 'buy' }] }],
      ['a stop as text', { ok: true, info, signals: [{ index: 1, side: 'buy', stop: '1.0' }] }],
      ['a zone upside down', { ok: true, info, signals: [{ index: 1, side: 'buy', zone: { top: 1, bottom: 2 } }] }],
      ['a pullback signal without its zone', { ok: true, info, signals: [{ index: 1, side: 'buy' }] }, { ...expected, zoneRequired: true }],
      ['signals that are not a list', { ok: true, info, signals: { index: 1 } }],
    ];
    const cases: [string, Uint8Array, ExpectedSignals][] = answers.map(([label, answer, against]) => [label, new TextEncoder().encode(JSON.stringify(answer)), against ?? expected]);
    cases.push(['not JSON', new TextEncoder().encode('Traceback (most recent call last):'), expected]);
    for (const [label, bytes, against] of cases) {
      const local = decodeSandboxAnswer(bytes, against);
      const threaded = await pool.sandbox.answer(new Uint8Array(bytes), against);
      assert.deepEqual(threaded, local, label);
    }
    const first = decodeSandboxAnswer(cases[0][1], expected);
    assert.equal(first.kind, 'ok');
    assert.deepEqual(first.kind === 'ok' && signalsOfColumns(first.signals), [{ index: 3, side: 'buy' }, { index: 7, side: 'sell', stop: 1.5 }, { index: 9, side: 'buy', zone: { top: 2, bottom: 1 } }]);
    assert.deepEqual(decodeSandboxAnswer(cases[7][1], expected), { kind: 'refused', refusal: { code: 'bad_output', detail: 'too_many', line: null, extra: { detail: '3' } } });
    assert.deepEqual(decodeSandboxAnswer(cases[2][1], expected), { kind: 'refused', refusal: { code: 'bad_output', detail: 'index', line: null, extra: { position: 2, detail: '99', n: 50 } } });
    const unplain = decodeSandboxAnswer(cases[3][1], expected);
    assert.deepEqual(unplain.kind === 'refused' && { ...unplain.refusal, detail: unplain.refusal.detail.length }, { code: 'protocol', detail: 1000, line: null, extra: { detail: null, column: null } });
    assert.deepEqual(decodeSandboxAnswer(cases[4][1], expected), { kind: 'refused', refusal: { code: 'protocol', detail: 'info', line: null, extra: {} } });
  });

  it('copies a forged answer nested too deep to cross a thread down to what the server reads', async () => {
    const expected: ExpectedSignals = { candleCount: 100, zoneRequired: false, maxSignals: 3 };
    const depth = 200_000;
    const nested = (open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);
    const info = `{"function": "detect_x", "detect_id": "x", "line": 3, "meta": {"PARAMS": {"a": 1, "deep": ${nested('{"a": ', '}')}}, "FILTERS": ["rsi"], "NAME": "N", "OTHER": ${nested('[', ']')}}, "more": ${nested('[', ']')}}`;
    const answers = [
      `{"ok": true, "info": ${info}, "signals": [{"index": 1, "side": "buy"}]}`,
      `{"ok": false, "error": {"code": "runtime_error", "message": "x", "line": 2, "detail": ${nested('[', ']')}, "extra": ${nested('{"a": ', '}')}}}`,
    ];
    for (const text of answers) {
      const bytes = new TextEncoder().encode(text);
      const local = decodeSandboxAnswer(bytes, expected);
      // The whole answer crosses back from the thread: before, its structured copy overflowed the stack.
      assert.deepEqual(await pool.sandbox.answer(new Uint8Array(bytes), expected), local);
    }
    const ok = decodeSandboxAnswer(new TextEncoder().encode(answers[0]), expected);
    assert.equal(ok.kind, 'ok');
    assert.deepEqual(ok.kind === 'ok' && ok.info, { function: 'detect_x', detect_id: 'x', line: 3, meta: { PARAMS: { a: 1, deep: { a: { a: null } } }, FILTERS: ['rsi'], NAME: 'N' } });
    assert.deepEqual(decodeSandboxAnswer(new TextEncoder().encode(answers[1]), expected), { kind: 'refused', refusal: { code: 'runtime_error', detail: 'x', line: 2, extra: { detail: null } } });
  });

  it('runs a backtest-sized call through the threads, a small one in-process, with the same signals as an in-process sandbox', async () => {
    if (!setup.ready) return;
    const { calls, counted } = counting(pool.sandbox);
    const threaded = new PythonSandbox(setup, { codec: threadedCodec(counted), limits: { wallMs: 30_000 } });
    const local = new PythonSandbox(setup, { limits: { wallMs: 30_000 } });
    const request = { source: EVERY_CANDLE, mode: 'run' as const, candles: series, meta: META };
    const [a, b] = [await threaded.run(request), await local.run(request)];
    assert.deepEqual(calls, { input: 1, answer: 1 }, 'both ends on a thread');
    assert.equal(signalCount(a.signals), series.length);
    assert.deepEqual(a.signals, b.signals);
    assert.equal(a.signals.side[0], -1);
    assert.equal(a.signals.stop[1], series.low[1] - 0.001);
    assert.ok(Number.isNaN(a.signals.top[0]), 'no zone');
    assert.ok(a.logs === '' && b.logs === '');

    // An import's dry run on the sample (600 candles, a small answer) never waits for a thread.
    const small = headCandles(series, 600);
    const few = await threaded.run({ ...request, candles: small });
    assert.equal(signalCount(few.signals), 600);
    assert.ok(600 * 40 < THREAD_MIN_ANSWER_BYTES);
    assert.deepEqual(calls, { input: 1, answer: 1 }, 'nothing more reached the threads');
  });
});

describe('the signal columns on their way to the engine', () => {
  const request = (signals: EngineRequest['strategy']): EngineRequest => ({
    strategy: signals,
    params: {},
    slMode: 'internal',
    symbol: 'EURUSD',
    timeframe: 'H1',
    pipSize: 0.0001,
    from: 0,
    to: 1,
    run: { runId: 'r', userId: 1, runSeq: 1 },
    createdAt: 0,
  });
  const shape = { detectName: 'detect_x', detectId: 'x', key: 'x', entryMode: 'signal' as const, filters: [], params: {}, description: '', name: 'X' };
  const list = [{ index: 0, side: 'buy' as const }, { index: 5, side: 'sell' as const, stop: 1.25 }, { index: 9, side: 'buy' as const, stop: 1.1, zone: { top: 1.2, bottom: 1.15 } }];

  it('turn back into the same signals', () => {
    const columns = signalColumnsOf(list);
    assert.equal(signalCount(columns), 3);
    assert.deepEqual(signalsOfColumns(columns), list);
  });

  it("cross the queue as base64 text (JSON in Redis) and come back equal; an older API's list is read too", () => {
    const sent = request({ shape, label: 'X', signals: signalColumnsOf(list) });
    const queued = JSON.parse(JSON.stringify(queuedRequest(sent)));
    assert.equal(typeof queued.strategy.signals.index, 'string');
    const back = engineRequestOf(queued);
    assert.deepEqual(back, sent);
    const older = engineRequestOf({ ...queued, strategy: { ...queued.strategy, signals: list } });
    assert.deepEqual(older, sent);
    // An official strategy's request is the same object both ways.
    const official = request('fvg_impulsive');
    assert.equal(engineRequestOf(queuedRequest(official)), official);
  });

  it('refuse columns that do not make one table, saying which', () => {
    const text = signalColumnsText(signalColumnsOf(list));
    const queued = queuedRequest(request({ shape, label: 'X', signals: signalColumnsOf(list) }));
    const broken = (signals: unknown) => () => engineRequestOf({ ...queued, strategy: { shape, label: 'X', signals: signals as never } });
    assert.throws(broken({ ...text, stop: Buffer.alloc(7).toString('base64') }), /invalid signal columns: stop holds 7 bytes, not a multiple of 8/);
    assert.throws(broken({ ...text, side: Buffer.alloc(2).toString('base64') }), /invalid signal columns: side has 2 values, index 3/);
    assert.throws(broken({ ...text, top: 5 }), /invalid signal columns: top is not base64 text/);
    assert.throws(broken(null), /invalid signal columns: index is not base64 text/);
  });
});
