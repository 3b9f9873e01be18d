// The CPU an import of the library leaves on the API's event loop (docs/queue.md): one year of M1
// (about 370,000 candles, 12 month files) through DatasetStore.importSeries, in-process (no pool)
// and with the engine pool's `month-files` task, in interleaved pairs. The event loop's thread is
// measured by its own CPU time (Linux /proc/thread-self/schedstat: process.cpuUsage counts every
// thread), the whole process by process.cpuUsage. Run: `npx tsx --conditions=@bt/source bench/library-import.bench.ts`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candlesFromColumns, seededRandom } from '@bt/core/candles';
import { migrate, openDatabase } from '../src/db/index.js';
import { DatasetStore } from '../src/datasets/store.js';
import { EnginePool } from '../src/jobs/pool.js';
import { LocalStorage } from '../src/storage/index.js';

const PAIRS = 5;

/** Weekdays of 2025, one candle a minute: a random walk. */
function yearOfM1() {
  const random = seededRandom(7);
  const times: number[] = [];
  for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2026, 0, 1); t += 60_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) times.push(t);
  }
  const n = times.length;
  const [open, high, low, close, volume] = [0, 0, 0, 0, 0].map(() => new Float64Array(n));
  let price = 1.1;
  for (let i = 0; i < n; i++) {
    const next = Math.round((price + (random() - 0.5) * 0.0004) * 1e5) / 1e5;
    open[i] = price;
    close[i] = next;
    high[i] = Math.max(price, next) + Math.round(random() * 10) / 1e5;
    low[i] = Math.min(price, next) - Math.round(random() * 10) / 1e5;
    volume[i] = 1 + Math.floor(random() * 500);
    price = next;
  }
  return candlesFromColumns({ time: Float64Array.from(times), open, high, low, close, volume }, { symbol: 'EURUSD', timeframe: 'M1' });
}

/** CPU time of the calling thread (ms). */
const threadMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const processMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const work = mkdtempSync(join(tmpdir(), 'bt-bench-import-'));
const pool = new EnginePool(1);
try {
  const candles = yearOfM1();
  const stores = await Promise.all(
    (['in-process', 'pool'] as const).map(async (kind) => {
      const db = await openDatabase(`sqlite:${join(work, `${kind}.sqlite`)}`, { dataDir: work });
      await migrate(db.sequelize);
      return { kind, db, store: new DatasetStore(db, new LocalStorage(join(work, kind)), () => {}, kind === 'pool' ? pool : null), loop: [] as number[], all: [] as number[] };
    }),
  );
  const options = { symbol: 'EURUSD', timeframe: 'M1' as const, source: 'bench' };
  // A first import each (thread start, JIT), not counted.
  for (const s of stores) await s.store.importSeries(candles, options);
  for (let i = 0; i < PAIRS; i++) {
    for (const s of i % 2 ? [...stores].reverse() : stores) {
      const [t0, p0] = [threadMs(), processMs()];
      await s.store.importSeries(candles, options);
      s.loop.push(threadMs() - t0);
      s.all.push(processMs() - p0);
    }
  }
  console.log(`one year of M1: ${candles.length} candles, ${PAIRS} interleaved pairs, medians`);
  for (const s of stores) console.log(`${s.kind.padEnd(10)} event loop ${median(s.loop).toFixed(0)} ms CPU, whole process ${median(s.all).toFixed(0)} ms CPU (loop: ${s.loop.map((x) => x.toFixed(0)).join(', ')})`);
  for (const s of stores) await s.db.close();
} finally {
  await pool.close();
  rmSync(work, { recursive: true, force: true });
}
