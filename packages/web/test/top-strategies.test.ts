import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../src/api/errors.js';
import { TOP_MESSAGES, TOP_STRATEGIES, cardsOutcome, itemFolder, loadTopStrategies, toCard } from '../src/pages/home/topStrategies.js';

const item = (patch: Record<string, unknown> = {}) => ({
  pair: 'EURUSD',
  timeframe: 'M15',
  strategy: 'ob_pullback_pure',
  from_date: '2025-01-01',
  to_date: '2025-01-31',
  winrate_tp1: 0.7234,
  trades: 41,
  folder: 'EURUSD_M15_ob_pullback_pure_20250101-20250131_sl100',
  ...patch,
});

describe('top strategy cards (docs/product.md §1.2, §1.3)', () => {
  it('shows pair, timeframe, strategy, period, TP1 win rate with 2 decimals and trades', () => {
    const card = toCard(item(), (key) => (key === 'ob_pullback_pure' ? 'OB pullback' : key));
    assert.deepEqual(
      { pair: card.pair, timeframe: card.timeframe, strategy: card.strategy, period: card.period, winrate: card.winrateText, trades: card.trades },
      { pair: 'EURUSD', timeframe: 'M15', strategy: 'OB pullback', period: '1er–31 janvier 2025', winrate: '72,34\u202f%', trades: 41 },
    );
    assert.equal(toCard(item({ period: 'Janvier 2025', strategy_name: 'Ma stratégie' })).period, 'Janvier 2025');
    assert.equal(toCard(item({ strategy_name: 'Ma stratégie' })).strategy, 'Ma stratégie');
  });

  it('writes the period and the trade count the French way, as the dashboard does', () => {
    // The API's own `period` (`2023-01-01 → 2023-01-31`) and a from/to pair read the same.
    assert.equal(toCard(item({ period: '2023-01-01 → 2023-01-31' })).period, '1er–31 janvier 2023');
    assert.equal(toCard(item({ from_date: '2023-01-16', to_date: '2023-02-14' })).period, '16 janvier\u2009–\u200914 février 2023');
    assert.equal(toCard(item({ trades: 1004 })).tradesText, '1\u202f004');
    assert.equal(toCard(item({ trades: null })).tradesText, '—');
  });

  it('is hot and great at 70, good at 55, plain below', () => {
    assert.deepEqual([toCard(item({ winrate_tp1: 70 })).hot, toCard(item({ winrate_tp1: 70 })).winrateClass], [true, 'great']);
    assert.deepEqual([toCard(item({ winrate_tp1: 0.6999 })).hot, toCard(item({ winrate_tp1: 0.6999 })).winrateClass], [false, 'good']);
    assert.deepEqual([toCard(item({ winrate_tp1: '55,0' })).hot, toCard(item({ winrate_tp1: '55,0' })).winrateClass], [false, 'good']);
    assert.equal(toCard(item({ winrate_tp1: 0.5 })).winrateClass, '');
    assert.equal(toCard(item({ winrate_tp1: null })).winrateText, '—');
  });

  it('finds the result folder under any of its names', () => {
    assert.equal(itemFolder({ xlsx_folder: 'A' }), 'A');
    assert.equal(itemFolder({ bt_folder: 'B/' }), 'B');
    assert.equal(itemFolder({ xlsxPath: 'out/7/C/C.xlsx' }), 'C');
    assert.equal(itemFolder({ xlsx: 'D.xlsx' }), 'D');
    assert.equal(itemFolder({ meta: { folder: 'E' } }), 'E');
    assert.equal(itemFolder({}), null);
  });

  it('keeps at most 6 cards and says so when the list is empty', () => {
    const outcome = cardsOutcome(Array.from({ length: 9 }, (_, i) => item({ trades: i })));
    assert.ok(outcome.kind === 'cards' && outcome.cards.length === TOP_STRATEGIES.maxCards);
    assert.deepEqual(cardsOutcome([]), { kind: 'message', message: 'Aucune stratégie disponible pour le moment.', tone: 'empty' });
    assert.deepEqual(cardsOutcome({ items: [item()] }).kind, 'cards');
  });
});

describe('loading top strategies (docs/product.md §1.8, §1.9)', () => {
  const noTimer = () => () => undefined;
  const sleepLog = (log: number[]) => async (ms: number) => void log.push(ms);

  it('keeps the skeletons at least 450 ms', async () => {
    const slept: number[] = [];
    const outcome = await loadTopStrategies({ fetchTop: async () => [item()], sleep: sleepLog(slept), setTimer: noTimer });
    assert.equal(outcome.kind, 'cards');
    assert.deepEqual(slept, [450]);
  });

  it('has a message for each failure', async () => {
    const run = (fetchTop: (signal: AbortSignal) => Promise<unknown>, setTimer = noTimer) => loadTopStrategies({ fetchTop, sleep: async () => undefined, setTimer });
    assert.deepEqual(await run(async () => Promise.reject(new HttpError(500, undefined, {}))), { kind: 'message', message: 'Aucune stratégie trouvée', tone: 'failed' });
    assert.deepEqual(await run(async () => Promise.reject(new TypeError('Failed to fetch'))), { kind: 'message', message: 'Impossible de charger les stratégies actuellement.', tone: 'other' });
    assert.deepEqual(await run(async () => ({ unexpected: true })), { kind: 'message', message: TOP_MESSAGES.other, tone: 'other' });
  });

  it('aborts after 6 s and says the connection is slow', async () => {
    let scheduled = 0;
    const fire: (() => void)[] = [];
    const outcome = await loadTopStrategies({
      fetchTop: (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          fire[0]();
        }),
      sleep: async () => undefined,
      setTimer: (fn, ms) => {
        scheduled = ms;
        fire.push(fn);
        return () => undefined;
      },
    });
    assert.equal(scheduled, 6000);
    assert.deepEqual(outcome, { kind: 'message', message: 'Connexion lente — données non disponibles pour l’instant.', tone: 'timeout' });
  });
});
