import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DRAFT_MAX_AGE_MS, DRAFT_STORAGE_KEY, clearDraft, mergeDraft, readDraft, saveDraft, type DraftStorage } from '../src/pages/backtest/draft.js';
import { initialForm, type BacktestFormState } from '../src/pages/backtest/form.js';

function memory(): DraftStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const filled = (): BacktestFormState => ({
  ...initialForm({ symbol: 'EURUSD' }),
  officialStrategy: 'ob_pullback_pure',
  timeframe: 'H1',
  start: '2023-01-02',
  end: '2023-01-31',
  slPips: '20',
  tp1Pips: '25',
  tp2Pips: '50',
  params: { min_wait_candles: '5', allow_multiple_entries: true },
  overlapTouch: false,
  overlapPercent: '25',
  costs: { ...initialForm({ symbol: 'EURUSD' }).costs, spread: '1,5', spreadEdited: true },
});

describe('backtest form kept across the connection prompt (docs/web.md "Backtest screen")', () => {
  it('gives back the form as it was, without its file, and only once the page clears it', () => {
    const storage = memory();
    saveDraft(storage, { ...filled(), mode: 'custom', file: { name: 'mine.csv' } }, 1_000);
    const back = readDraft(storage, initialForm(), 2_000);
    assert.deepEqual({ ...back, file: null }, { ...filled(), mode: 'custom', file: null });
    assert.equal(back.file, null, 'a file field is never restored');
    assert.equal(readDraft(storage, initialForm(), 2_000).slPips, '20', 'reading twice (a state initialiser) gives it twice');
    clearDraft(storage);
    assert.deepEqual(readDraft(storage, initialForm(), 3_000), initialForm());
  });

  it('ignores a draft older than an hour, from the future, or unreadable', () => {
    const storage = memory();
    saveDraft(storage, filled(), 0);
    assert.deepEqual(readDraft(storage, initialForm(), DRAFT_MAX_AGE_MS + 1), initialForm());
    assert.equal(readDraft(storage, initialForm(), DRAFT_MAX_AGE_MS).slPips, '20');
    assert.deepEqual(readDraft(storage, initialForm(), -1), initialForm());
    storage.setItem(DRAFT_STORAGE_KEY, '{not json');
    assert.deepEqual(readDraft(storage, initialForm(), 0), initialForm());
  });

  it('takes each stored field only with the type the form has', () => {
    const initial = initialForm();
    const merged = mergeDraft(initial, {
      mode: 'other',
      source: 'gpt',
      slPips: 30,
      start: '2023-02-01',
      overlapTouch: 'yes',
      params: { a: '1', b: false, c: { x: 1 }, d: 3 },
      costs: { spread: '2', slippage: 4 },
      file: { name: 'x.csv' },
    });
    assert.equal(merged.mode, 'official');
    assert.equal(merged.source, 'gpt');
    assert.equal(merged.slPips, initial.slPips, 'a number where text is kept is ignored');
    assert.equal(merged.start, '2023-02-01');
    assert.equal(merged.overlapTouch, initial.overlapTouch);
    assert.deepEqual(merged.params, { a: '1', b: false });
    assert.deepEqual([merged.costs.spread, merged.costs.slippage], ['2', initial.costs.slippage]);
    assert.equal(merged.file, null);
    assert.deepEqual(mergeDraft(initial, null), initial);
  });

  it('a storage that refuses to write or read keeps the page working', () => {
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    saveDraft(broken, filled(), 0);
    assert.deepEqual(readDraft(broken, initialForm(), 0), initialForm());
    clearDraft(broken);
  });
});
