import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryStorage } from '../src/session/keyStorage.js';
import { PINS_CAP, PINS_STORAGE_KEY, PinStore, parsePins } from '../src/features/pins/store.js';
import { bucketLabel, parsePin, pinId, type NewPin } from '../src/features/pins/pin.js';

const FOLDER = 'EURUSD_M15_ob_pullback_pure_rsi_20230101-20230131_sl10';

const pin = (patch: Partial<NewPin> = {}): NewPin => ({ folder: FOLDER, type: 'global', key: 'Winrate TP1', bucket: null, value: 0.5714, ...patch });

function clock(start = 1_000) {
  let t = start;
  return () => ++t;
}

describe('pins store (btPins_v1, docs/product.md §2.3-§2.4)', () => {
  it('stores pins under btPins_v1, newest first, and reads them back in a new store', () => {
    const storage = memoryStorage();
    const store = new PinStore(storage, clock());
    store.pin(pin());
    store.pin(pin({ type: 'per-hour', key: 'Winrate TP1', bucket: '14', value: 0.8, tz: 1 }));
    const stored = JSON.parse(storage.getItem(PINS_STORAGE_KEY)!);
    assert.equal(stored.length, 2);
    assert.equal(stored[0].type, 'per-hour');
    assert.equal(stored[0].tz, 1);
    const reread = new PinStore(storage);
    assert.deepEqual(reread.getPins(), store.getPins());
  });

  it('dedupes on folder, type, bucket and metric: pinning again refreshes the value and moves it first', () => {
    const store = new PinStore(memoryStorage(), clock());
    store.pin(pin());
    store.pin(pin({ key: 'Taux SL', value: 0.3 }));
    store.pin(pin({ value: 0.6 }));
    const pins = store.getPins();
    assert.equal(pins.length, 2);
    assert.equal(pins[0].key, 'Winrate TP1');
    assert.equal(pins[0].value, 0.6);
    // The same metric in another bucket or another result is another pin.
    store.pin(pin({ type: 'sessions', bucket: 'Londres' }));
    store.pin(pin({ folder: FOLDER.replace('sl10', 'sl20') }));
    assert.equal(store.getPins().length, 4);
  });

  it(`keeps at most ${PINS_CAP} pins, dropping the oldest`, () => {
    const storage = memoryStorage();
    const store = new PinStore(storage, clock());
    for (let hour = 0; hour < PINS_CAP + 5; hour++) store.pin(pin({ type: 'per-hour', bucket: String(hour % 24), key: `Metric ${hour}`, value: hour }));
    const pins = store.getPins();
    assert.equal(pins.length, PINS_CAP);
    assert.equal(pins[0].value, PINS_CAP + 4, 'newest first');
    assert.equal(pins.at(-1)!.value, 5, 'the five oldest are gone');
    assert.equal(JSON.parse(storage.getItem(PINS_STORAGE_KEY)!).length, PINS_CAP);
  });

  it('unpin and toggle remove the matching entry only and notify subscribers', () => {
    const store = new PinStore(memoryStorage(), clock());
    const a = store.pin(pin());
    store.pin(pin({ key: 'Taux SL', value: 0.3 }));
    let calls = 0;
    store.subscribe(() => calls++);
    store.unpin(a.id);
    assert.deepEqual(store.getPins().map((p) => p.key), ['Taux SL']);
    assert.equal(calls, 1);
    store.unpin('nothing|here');
    assert.equal(calls, 1, 'unpinning an unknown id changes nothing');
    assert.equal(store.toggle(pin({ key: 'Taux SL', value: 0.3 })), false);
    assert.equal(store.toggle(pin({ key: 'Taux SL', value: 0.3 })), true);
    assert.equal(calls, 3);
  });

  it('another tab: a storage event on btPins_v1 re-reads the list and notifies every view of this page', () => {
    const shared = memoryStorage(); // one origin's localStorage, seen by both tabs
    const tabA = new PinStore(shared, clock());
    const tabB = new PinStore(shared, clock());
    const seen: number[] = [];
    tabB.subscribe(() => seen.push(tabB.getPins().length));
    tabB.subscribe(() => seen.push(-tabB.getPins().length));
    tabA.pin(pin());
    assert.equal(tabB.getPins().length, 0, 'nothing reaches tab B before its storage event');
    tabB.handleStorageEvent('apiKey');
    assert.deepEqual(seen, [], 'other keys are ignored');
    tabB.handleStorageEvent(PINS_STORAGE_KEY);
    assert.deepEqual(seen, [1, -1]);
    assert.deepEqual(tabB.getPins(), tabA.getPins());
    tabB.handleStorageEvent(PINS_STORAGE_KEY);
    assert.equal(seen.length, 2, 'an event without a change does not re-render');
    // Tab B removes it; tab A follows; localStorage.clear() in a tab fires an event with key null.
    tabB.unpin(tabB.getPins()[0].id);
    tabA.handleStorageEvent(PINS_STORAGE_KEY);
    assert.equal(tabA.getPins().length, 0);
    tabA.pin(pin());
    shared.removeItem(PINS_STORAGE_KEY);
    tabA.handleStorageEvent(null);
    assert.equal(tabA.getPins().length, 0);
  });

  it('keeps working in memory when the storage refuses to write', () => {
    const store = new PinStore({ getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } }, clock());
    let notified = false;
    store.subscribe(() => (notified = true));
    store.pin(pin());
    assert.equal(store.getPins().length, 1);
    assert.ok(notified);
  });

  it('reads stored lists tolerantly: bad JSON, entries without a value, keyDisplay only, duplicates', () => {
    assert.deepEqual(parsePins('not json'), []);
    assert.deepEqual(parsePins('{"a":1}'), []);
    const pins = parsePins(
      JSON.stringify([
        { folder: FOLDER, type: 'per-hour', keyDisplay: 'Winrate TP1', bucket: '14', value: '0,62', tz: 2 },
        { folder: FOLDER, type: 'per-hour', key: 'Winrate TP1', bucket: '14', value: 0.7, tz: 2 },
        { folder: FOLDER, type: 'global', key: 'Trades' },
        { type: 'global', key: 'Trades', value: 3 },
        null,
      ]),
    );
    assert.equal(pins.length, 1);
    assert.equal(pins[0].key, 'Winrate TP1');
    assert.equal(pins[0].value, 0.62);
    assert.equal(pins[0].id, pinId(pins[0]));
    assert.equal(bucketLabel(pins[0]), '16h (UTC+2)', 'a per-hour pin shows its hour in the zone it was pinned in');
    assert.equal(parsePin({ folder: FOLDER, type: 'global', key: 'Trades', value: 4, tz: 3 })!.tz, undefined, 'tz belongs to per-hour pins only');
  });
});
