import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configValue, isHiddenMetric, usesInternalStop, visibleMetricRows } from '@bt/core/format';

const CONFIG_ROWS = [
  ['strategy', 'fvg_impulsive'],
  ['sl_mode', 'external'],
  ['sl_pips', 100],
  ['tp1_pips', 100],
  ['tp2_pips', 200],
  ['run_id', 'r-1'],
  ['user_id', 7],
  ['run_seq', 3],
] as const;

test('run_id, user_id and run_seq are always hidden', () => {
  const visible = visibleMetricRows(CONFIG_ROWS, { folder: 'EURUSD_M5_fvg_impulsive_20240101-20240131_sl100', config: CONFIG_ROWS });
  assert.deepEqual(visible.map((r) => r[0]), ['strategy', 'sl_mode', 'sl_pips', 'tp1_pips', 'tp2_pips']);
});

test('SL and TP1 size rows hidden when the folder has _sl0', () => {
  const visible = visibleMetricRows(CONFIG_ROWS, { folder: 'EURUSD_M5_fvg_impulsive_20240101-20240131_sl0', config: CONFIG_ROWS });
  assert.deepEqual(visible.map((r) => r[0]), ['strategy', 'sl_mode', 'tp2_pips']);
  assert.equal(usesInternalStop({ folder: 'EURUSD_M5_x_20240101-20240131_sl0_2' }), true);
  // A 0.5-pip external stop is not _sl0.
  assert.equal(usesInternalStop({ folder: 'EURUSD_M5_x_20240101-20240131_sl0.5' }), false);
  assert.equal(usesInternalStop({ folder: 'EURUSD_M5_x_20240101-20240131_sl05' }), false);
});

test('SL and TP1 size rows hidden when Config says sl_mode=internal (rows or entries)', () => {
  const internalRows = CONFIG_ROWS.map((r) => (r[0] === 'sl_mode' ? (['sl_mode', 'internal'] as const) : r));
  assert.equal(usesInternalStop({ config: internalRows }), true);
  assert.equal(usesInternalStop({ config: [{ metric: 'SL_MODE', value: ' Internal ' }] }), true);
  assert.equal(usesInternalStop({ config: [{ metric: 'sl_mode', value: 'external' }] }), false);
  assert.equal(usesInternalStop({}), false);
  assert.deepEqual(visibleMetricRows(internalRows, { config: internalRows }).map((r) => r[0]), ['strategy', 'sl_mode', 'tp2_pips']);
  assert.equal(configValue(internalRows, 'TP2_PIPS'), 200);
  assert.equal(configValue(null, 'sl_mode'), undefined);
  assert.equal(isHiddenMetric('sl', true), true);
  assert.equal(isHiddenMetric('sl', false), false);
  assert.equal(isHiddenMetric(' Run_ID ', false), true);
});
