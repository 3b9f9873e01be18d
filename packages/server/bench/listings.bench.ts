// Owns the `listings` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`, or
// `npx tsx --conditions=@bt/source bench/listings.bench.ts` in packages/server.
//
// What the API's thread pays for the calls whose cost grows with the data rather than with the
// request (docs/server.md "Public top strategies", "Backtests, results and credits"): the public
// top list among many official runs (read, and between reads), a heavy user's listings, and the
// first page of a large result's workbook. Through the real app on loopback, SQLite and MariaDB.
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runBacktest as runCoreBacktest } from '@bt/core';
import { openWorkbook } from '@bt/core/report';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { forexYearM5 } from '../../core/bench/lib/forex-year.js';
import { EnginePool } from '../src/jobs/pool.js';
import { textWorkbookReader } from '../src/results/workbook-text.js';
import { register, startTestApp, type TestApp } from '../test/support/app.js';
import { openTestDatabase } from '../test/support/db.js';
import { runBacktest } from '../test/support/work.js';
import { quantile } from './quantile.js';

const SECTION = 'listings';
const OFFICIAL_RUNS = 22_000;
const USER_RUNS = 2_000;
const CALLS = 15;

interface Measure {
  wall: number;
  cpu: number;
  loopMax: number;
}

/** Medians over `CALLS` calls: wall, the process's CPU (the database's too on SQLite) and the longest event-loop block. */
async function measure(call: () => Promise<unknown>, calls = CALLS): Promise<Measure> {
  const wall: number[] = [];
  const cpu: number[] = [];
  const loop: number[] = [];
  for (let i = 0; i < calls; i++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await call();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    // One more tick so that the last block is recorded.
    await new Promise((resolve) => setTimeout(resolve, 2));
    delay.disable();
    loop.push(delay.max / 1e6);
  }
  return { wall: quantile(wall, 0.5), cpu: quantile(cpu, 0.5), loopMax: quantile(loop, 0.5) };
}

/** Copies of a real run's row: official runs of other users over 12 periods and 4 strategies, and the heavy user's own. */
async function fill(t: TestApp, template: Record<string, unknown>, userId: number, count: number, official: boolean, first: number): Promise<void> {
  const strategies = ['fvg_pullback_multi', 'ob_pullback_pure', 'englobante_entry', 'fvg_impulsive'];
  for (let done = 0; done < count; done += 1000) {
    const rows = [];
    for (let i = done; i < Math.min(count, done + 1000); i++) {
      const n = first + i;
      const { id: _id, ...rest } = template;
      rows.push({
        ...rest,
        userId,
        official,
        runId: `bench-${n}`,
        runSeq: n + 2,
        folder: `${String(template.folder)}_${n + 2}`,
        strategy: strategies[n % 4],
        startDate: `2023-${String(1 + (n % 12)).padStart(2, '0')}-01`,
        // A spread of win rates and trade counts, deterministic.
        winrateTp1: ((n * 7919) % 1000) / 1000,
        resolved: 10 + ((n * 31) % 90),
      });
    }
    await t.db.models.BacktestRun.bulkCreate(rows as never[]);
  }
}

const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

async function calls(dialect: 'sqlite' | 'mysql'): Promise<string[]> {
  process.env.BT_TEST_DB = dialect === 'mysql' ? 'mariadb' : 'sqlite';
  const tdb = await openTestDatabase();
  // A read on every visit (topCacheMs 0) for the read's own cost; a second app below keeps the list.
  const t = await startTestApp(tdb.db, { library: true, config: { topCacheMs: 0 } });
  const cached = await startTestApp(tdb.db, { config: { topCacheMs: 10_000 } });
  try {
    const heavy = await register(t);
    await t.app.services.ledger.grant(heavy.id, 100, 'admin');
    const res = await runBacktest(t, heavy.key);
    if (res.status !== 200) throw new Error(res.text);
    const template = (await t.db.models.BacktestRun.findOne({ where: { userId: heavy.id }, raw: true })) as unknown as Record<string, unknown>;
    await fill(t, template, heavy.id, USER_RUNS - 1, true, 0);
    const others = await register(t);
    await fill(t, template, others.id, OFFICIAL_RUNS - USER_RUNS, true, USER_RUNS);
    const name = dialect === 'mysql' ? 'MariaDB' : 'SQLite';
    const top = await measure(() => t.request('GET', '/api/top-strategy'));
    await cached.request('GET', '/api/top-strategy');
    const topCached = await measure(() => cached.request('GET', '/api/top-strategy'));
    const list = await measure(() => t.request('GET', '/api/user/backtests', { key: heavy.key }));
    const page = await measure(() => t.request('GET', '/api/user/backtests?sort=winrate-desc&limit=9&offset=0', { key: heavy.key }));
    const options = await measure(() => t.request('GET', '/api/compare/options', { key: heavy.key }));
    return [
      row([name, `GET /api/top-strategy, a read (${OFFICIAL_RUNS.toLocaleString('en')} official runs)`, ms(top.wall), ms(top.cpu), ms(top.loopMax)]),
      row([name, 'GET /api/top-strategy, between reads (TOP_CACHE_SECONDS)', ms(topCached.wall), ms(topCached.cpu), ms(topCached.loopMax)]),
      row([name, `GET /api/user/backtests, every run (${USER_RUNS.toLocaleString('en')})`, ms(list.wall), ms(list.cpu), ms(list.loopMax)]),
      row([name, `GET /api/user/backtests?sort=winrate-desc&limit=9, the dashboard's first page (${USER_RUNS.toLocaleString('en')} runs)`, ms(page.wall), ms(page.cpu), ms(page.loopMax)]),
      row([name, `GET /api/compare/options (${USER_RUNS.toLocaleString('en')} runs)`, ms(options.wall), ms(options.cpu), ms(options.loopMax)]),
    ];
  } finally {
    await cached.close();
    await t.close();
    await tdb.drop();
  }
}

async function workbook(): Promise<{ rows: string[]; trades: number; kib: number }> {
  const candles = forexYearM5();
  const run = await runCoreBacktest(candles, { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 }, { workbook: true, createdAt: 0 });
  const bytes = run.workbook!;
  const pool = new EnginePool(1);
  try {
    // The thread started and its modules loaded first, as in a running server.
    await pool.workbook(bytes);
    const page = async (open: (b: Uint8Array) => Promise<{ meta(): unknown; sheet(name: string, options: object): unknown }>) => {
      const reader = await open(bytes);
      reader.meta();
      reader.sheet('Trades', { limit: 200 });
    };
    const inProcess = await measure(() => page(openWorkbook), 5);
    const threaded = await measure(() => page(async (b) => textWorkbookReader(await pool.workbook(b))), 5);
    const what = 'a result workbook parsed, its meta and first Trades page';
    return {
      rows: [
        row(['–', `${what}, exceljs on the API's thread (before)`, ms(inProcess.wall), ms(inProcess.cpu), ms(inProcess.loopMax)]),
        row(['–', `${what}, on an engine thread (now)`, ms(threaded.wall), ms(threaded.cpu), ms(threaded.loopMax)]),
      ],
      trades: run.trades.length,
      kib: Math.round(bytes.length / 1024),
    };
  } finally {
    await pool.close();
  }
}

async function main(): Promise<void> {
  const start = loadavg()[0];
  const sqlite = await calls('sqlite');
  const mariadb = await calls('mysql');
  const wb = await workbook();
  const end = loadavg()[0];
  const body = `## Listings and results: what the API's thread pays as the data grows

\`npm run bench -w @bt/server\` (packages/server/bench/listings.bench.ts) rewrites this section.
Machine: ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores shared with other work (1-minute load average ${start.toFixed(1)} at the start, ${end.toFixed(1)} at the end), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
Through the real app on loopback (the client in the same process), medians of ${CALLS} calls (5 for the workbook): wall, the process's CPU
(SQLite's own work included, as it runs in the process) and the longest event-loop block of a call (monitorEventLoopDelay, 1 ms).
${OFFICIAL_RUNS.toLocaleString('en')} official runs, ${USER_RUNS.toLocaleString('en')} of them one user's (copies of a real run's row). The workbook: one year of M5, fvg_impulsive, ${wb.trades.toLocaleString('en')} trades, ${wb.kib} KiB.

| database | call | wall ms | CPU ms | event loop blocked, max ms |
|---|---|---:|---:|---:|
${[...sqlite, ...mariadb, ...wb.rows].join('\n')}

Before the changes of 2026-11-29 (measured the same way, at a load average of 7 to 10): the top list 66 to 82 ms on SQLite and 27 ms
on MariaDB (237 ms there without the index in the list's order), a user's 2,000 runs 312 ms on SQLite, most of it Sequelize
building model objects on the event loop (docs/server.md "Public top strategies", "Backtests, results and credits").`;
  writeSection(SECTION, body);
  console.log(body);
}

await main();
