import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PARAM_TEXT_MAX, ParamError, canonicalParamName, normalizeParams, parseParamAssignments,
} from '@bt/core/params';

const OB = 'ob_pullback_pure_tendance_ema_rsi';

test('aliases map to the canonical names', () => {
  assert.equal(canonicalParamName('min_wait_candle'), 'min_wait_candles');
  assert.equal(canonicalParamName('max_wait_candle'), 'max_wait_candles');
  assert.equal(canonicalParamName('RSI'), 'rsi_key');
  assert.equal(canonicalParamName('ema1'), 'ema_fast');
  assert.equal(canonicalParamName('ema2'), 'ema_slow');
  assert.equal(canonicalParamName('Datetime'), 'time_key');
  assert.equal(canonicalParamName(' MIN_PIPS '), 'min_pips');
  assert.equal(canonicalParamName('constructor'), 'constructor', 'no prototype lookups');
  const { params } = normalizeParams(
    { min_wait_candle: '2', max_wait_candle: '9', RSI: 'RSI_14', ema1: 'EMA_20', ema2: 'EMA_100', Datetime: 'Datetime' },
    { strategy: OB, defaults: false },
  );
  assert.deepEqual(params, {
    min_wait_candles: 2, max_wait_candles: 9, time_key: 'Datetime', ema_fast: 'EMA_20', ema_slow: 'EMA_100', rsi_key: 'RSI_14',
  });
});

test('strings from a CLI or a form are coerced to the declared types', () => {
  const { params } = normalizeParams({
    min_wait_candles: ' 3 ', max_wait_candles: '20', allow_multiple_entries: 'oui', confirm_candle: 'false',
    min_pips: '2,5', rsi_threshold: '35.5', max_touch: '4', ob_side: 'Bullish', time_key: 'time',
  }, { strategy: OB, defaults: false });
  assert.deepEqual(params, {
    min_wait_candles: 3, max_wait_candles: 20, allow_multiple_entries: true, max_touch: 4, min_pips: 2.5,
    confirm_candle: false, time_key: 'time', ob_side: 'bullish', rsi_threshold: 35.5,
  });
  const words = ['true', 'TRUE', '1', 'oui', 'yes', 'on', 'false', '0', 'non', 'no', 'off'];
  assert.deepEqual(
    words.map((w) => normalizeParams({ confirm_candle: w }, { strategy: 'englobante_entry' }).params.confirm_candle),
    [true, true, true, true, true, true, false, false, false, false, false],
  );
});

test('JSON values are taken as they are, and a JSON text (params_json) is parsed', () => {
  const json = { min_wait_candles: 5, allow_multiple_entries: true, min_overlap_ratio: 0.5, confirm_candle: 0 };
  const fromObject = normalizeParams(json, { strategy: 'fvg_pullback_multi', defaults: false }).params;
  assert.deepEqual(fromObject, { min_wait_candles: 5, allow_multiple_entries: true, min_overlap_ratio: 0.5, confirm_candle: false });
  assert.deepEqual(normalizeParams(JSON.stringify(json), { strategy: 'fvg_pullback_multi', defaults: false }).params, fromObject);
  assert.deepEqual(normalizeParams('', { strategy: 'fvg_impulsive', defaults: false }).params, {});
  assert.throws(() => normalizeParams('{oops', { strategy: 'fvg_impulsive' }), /^ParamError: invalid params: "\{oops" \(expected a JSON object \(/);
  assert.throws(() => normalizeParams([1, 2], { strategy: 'fvg_impulsive' }), { message: 'invalid params: [1,2] (expected an object of name: value)' });
});

test('defaults fill what is not given, with the family overrides; empty values mean "not given"', () => {
  const { params, warnings } = normalizeParams({ min_wait_candles: '', confirm_candle: null }, { strategy: 'englobante_entry_rsi_ema' });
  assert.deepEqual(params, { confirm_candle: false, time_key: 'time', rsi_key: 'RSI', rsi_threshold: 50, ema_key: 'EMA_50' });
  assert.deepEqual(warnings, [], 'an empty field the strategy does not read (a form sends them all) asks for nothing');
  assert.throws(() => normalizeParams({ min_wait_candles: '1' }, { strategy: 'englobante_entry' }), /^ParamError: unknown parameter: "min_wait_candles" \(englobante_entry does not read it/);
  assert.equal(normalizeParams({}, { strategy: 'ob_pullback_pure_rsi' }).params.rsi_threshold, 40);
  assert.equal('min_overlap_ratio' in normalizeParams({}, { strategy: 'ob_pullback_pure' }).params, false, 'unset overlap: entry on touch');
});

test('EMA and RSI columns may be given as a bare period', () => {
  const { params } = normalizeParams({ ema_fast: '50', ema_slow: 200, rsi_key: '7' }, { strategy: OB, defaults: false });
  assert.deepEqual(params, { ema_fast: 'EMA_50', ema_slow: 'EMA_200', rsi_key: 'RSI_7' });
  assert.equal(normalizeParams({ ema_key: ' 21 ' }, { strategy: 'fvg_impulsive_ema' }).params.ema_key, 'EMA_21');
  assert.equal(normalizeParams({ ema_key: 'EMA_50_close' }, { strategy: 'fvg_impulsive_ema' }).params.ema_key, 'EMA_50_close');
  assert.throws(() => normalizeParams({ ema_key: '2.5' }, { strategy: 'fvg_impulsive_ema' }), {
    message: 'invalid ema_key: "2.5" (expected a column name such as EMA_50, or a whole period ≥ 1)',
  });
  assert.throws(() => normalizeParams({ rsi_key: 0 }, { strategy: 'fvg_impulsive_rsi' }), {
    message: 'invalid rsi_key: 0 (expected a column name such as RSI_14, or a whole period ≥ 1)',
  });
});

test('invalid values name the parameter, the value and what was expected', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ min_wait_candles: 'abc' }, 'invalid min_wait_candles: "abc" (expected an integer)'],
    [{ min_wait_candles: '2.5' }, 'invalid min_wait_candles: "2.5" (expected an integer)'],
    [{ max_wait_candles: 1.5 }, 'invalid max_wait_candles: 1.5 (expected an integer)'],
    [{ max_touch: 0 }, 'invalid max_touch: 0 (expected an integer ≥ 1)'],
    [{ min_wait_candles: -1 }, 'invalid min_wait_candles: -1 (expected an integer ≥ 0)'],
    [{ min_pips: '1 000' }, 'invalid min_pips: "1 000" (expected a number)'],
    [{ min_pips: -2 }, 'invalid min_pips: -2 (expected a number ≥ 0)'],
    [{ rsi_threshold: 150 }, 'invalid rsi_threshold: 150 (expected a number from 0 to 100)'],
    [{ rsi_threshold: 'Infinity' }, 'invalid rsi_threshold: "Infinity" (expected a number)'],
    [{ allow_multiple_entries: 'peut-être' }, 'invalid allow_multiple_entries: "peut-être" (expected a boolean: true/false, 1/0 or oui/non)'],
    [{ confirm_candle: 2 }, 'invalid confirm_candle: 2 (expected a boolean: true/false, 1/0 or oui/non)'],
    [{ ob_side: 'up' }, 'invalid ob_side: "up" (expected one of both, bullish, bearish)'],
    [{ time_key: true }, 'invalid time_key: true (expected a string)'],
    [{ min_wait_candles: [3] }, 'invalid min_wait_candles: [3] (expected an integer)'],
  ];
  for (const [raw, message] of cases) {
    assert.throws(() => normalizeParams(raw, { strategy: OB }), (error: unknown) => {
      assert.ok(error instanceof ParamError);
      assert.equal(error.message, message);
      assert.equal(error.param, Object.keys(raw)[0]);
      return true;
    });
    assert.throws(() => normalizeParams(raw, { strategy: OB, unknown: 'warn' }), { message }, 'bad values are errors in warn mode too');
  }
});

test('a text value is at most 256 characters: column names, choices, a user strategy’s own, CLI words', () => {
  assert.equal(PARAM_TEXT_MAX, 256);
  const expected = (name: string, shown: string) => `invalid ${name}: "${shown}... (expected a text of at most 256 characters)`;
  const cases: [Record<string, unknown>, NonNullable<Parameters<typeof normalizeParams>[1]>['strategy'], string][] = [
    [{ time_key: '€'.repeat(30_000) }, OB, expected('time_key', '€'.repeat(76))],
    [{ Datetime: 'x'.repeat(40_000) }, OB, expected('time_key', 'x'.repeat(76))],
    [{ rsi_key: 'R'.repeat(257) }, OB, expected('rsi_key', 'R'.repeat(76))],
    [{ ema_fast: 'E'.repeat(300) }, OB, expected('ema_fast', 'E'.repeat(76))],
    [{ ob_side: 'b'.repeat(300) }, OB, expected('ob_side', 'b'.repeat(76))],
    [{ label: 'L'.repeat(33_000) }, ['label'], expected('label', 'L'.repeat(76))],
    [parseParamAssignments([`time_key=${'T'.repeat(32_768)}`]), OB, expected('time_key', 'T'.repeat(76))],
  ];
  for (const [raw, strategy, message] of cases) {
    for (const unknown of ['error', 'warn'] as const) {
      assert.throws(() => normalizeParams(raw, { strategy, unknown }), (error: unknown) => {
        assert.ok(error instanceof ParamError);
        assert.equal(error.message, message);
        assert.equal(error.expected, 'a text of at most 256 characters');
        return true;
      });
    }
  }
  // The bound is on the text kept: surrounding spaces do not count.
  const { params } = normalizeParams({ time_key: `  ${'T'.repeat(256)}  `, label: 'L'.repeat(256) }, { strategy: ['time_key', 'label'], defaults: false });
  assert.deepEqual(params, { time_key: 'T'.repeat(256), label: 'L'.repeat(256) });
});

test('unknown parameters: an error for the CLI, dropped with a warning for the server', () => {
  assert.throws(() => normalizeParams({ min_wait_candels: 3 }, { strategy: 'ob_pullback_gap' }), {
    message: 'unknown parameter: "min_wait_candels" (ob_pullback_gap reads min_wait_candles, max_wait_candles, allow_multiple_entries, min_overlap_ratio, max_touch, min_pips, confirm_candle, time_key, ob_side; did you mean min_wait_candles?)',
  });
  assert.throws(() => normalizeParams({ rsi_threshold: 30 }, { strategy: 'ob_pullback_gap' }), {
    message: 'unknown parameter: "rsi_threshold" (ob_pullback_gap does not read it; it reads min_wait_candles, max_wait_candles, allow_multiple_entries, min_overlap_ratio, max_touch, min_pips, confirm_candle, time_key, ob_side)',
  });
  const { params, warnings } = normalizeParams({ zzz: 1, rsi_threshold: 30, min_wait_candles: 4 }, { strategy: 'ob_pullback_gap', unknown: 'warn', defaults: false });
  assert.deepEqual(params, { min_wait_candles: 4 });
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /^unknown parameter: "zzz" \(ob_pullback_gap reads .*ob_side\): ignored$/);
  assert.match(warnings[1], /^unknown parameter: "rsi_threshold" \(ob_pullback_gap does not read it; .*\): ignored$/);
  assert.throws(() => normalizeParams({ foo: 1 }), /^ParamError: unknown parameter: "foo" \(expected one of min_wait_candles, .*confirm_candle\)$/);
});

test('a signature given as a list of names (user strategies) filters and passes its own parameters through', () => {
  const { params, warnings } = normalizeParams(
    { min_wait_candle: '4', lookback: '12', rsi_threshold: 30, extra: 1 },
    { strategy: ['min_wait_candles', 'lookback', 'rsi_threshold'], unknown: 'warn' },
  );
  assert.deepEqual(params, { min_wait_candles: 4, lookback: '12', rsi_threshold: 30 });
  assert.deepEqual(warnings, ['unknown parameter: "extra" (this strategy reads min_wait_candles, lookback, rsi_threshold): ignored']);
});

test('the same parameter under two names must agree', () => {
  assert.deepEqual(normalizeParams({ min_wait_candle: 3, min_wait_candles: '3' }, { strategy: 'fvg_pullback_multi', defaults: false }).params, { min_wait_candles: 3 });
  assert.throws(() => normalizeParams({ min_wait_candle: 2, min_wait_candles: 5 }, { strategy: 'fvg_pullback_multi' }), {
    message: 'invalid min_wait_candles: given twice with different values (min_wait_candle=2, min_wait_candles=5)',
  });
  const { params, warnings } = normalizeParams({ min_wait_candle: 2, min_wait_candles: 5 }, { strategy: 'fvg_pullback_multi', unknown: 'warn', defaults: false });
  assert.deepEqual(params, { min_wait_candles: 5 });
  assert.deepEqual(warnings, ['invalid min_wait_candles: given twice with different values (min_wait_candle=2, min_wait_candles=5): kept min_wait_candles']);
});

test('cross-field rules: min_wait ≤ max_wait blames the value given, EMA fast and slow differ', () => {
  assert.throws(() => normalizeParams({ min_wait_candles: 30 }, { strategy: 'ob_pullback_pure' }), {
    message: 'invalid min_wait_candles: 30 (expected at most max_wait_candles (20))',
  });
  assert.throws(() => normalizeParams({ max_wait_candles: 2 }, { strategy: 'ob_pullback_pure' }), {
    message: 'invalid max_wait_candles: 2 (expected at least min_wait_candles (3))',
  });
  assert.equal(normalizeParams({ min_wait_candles: 5, max_wait_candles: 5 }, { strategy: 'ob_pullback_pure' }).params.max_wait_candles, 5);
  assert.throws(() => normalizeParams({ ema_slow: '50' }, { strategy: OB }), {
    message: 'invalid ema_slow: "EMA_50" (expected a different column from ema_fast)',
  });
  const { warnings } = normalizeParams({ ema_fast: 200, ema_slow: 50 }, { strategy: OB });
  assert.deepEqual(warnings, ['ema_fast EMA_200 is slower than ema_slow EMA_50: the trend filter buys when EMA_200 is above EMA_50, as given']);
});

test('an unknown strategy is refused before anything else', () => {
  assert.throws(() => normalizeParams({}, { strategy: 'ob_pullback' }), /^Error: invalid strategy: "ob_pullback" \(.*did you mean ob_pullback_gap\?\)$/);
});

test('CLI words name=value become a raw record', () => {
  assert.deepEqual(parseParamAssignments(['min_wait_candle=3', 'rsi_key=RSI_14', 'note=a=b', 'time_key=']), {
    min_wait_candle: '3', rsi_key: 'RSI_14', note: 'a=b', time_key: '',
  });
  assert.throws(() => parseParamAssignments(['min_wait_candles']), {
    message: 'invalid parameter: "min_wait_candles" (expected name=value, e.g. min_wait_candles=3)',
  });
  assert.throws(() => parseParamAssignments(['=3']), { message: 'invalid parameter: "=3" (expected name=value, e.g. min_wait_candles=3)' });
  assert.throws(() => parseParamAssignments(['max_touch=2', 'max_touch=3']), { message: 'invalid max_touch: given twice ("2" and "3")' });
});
