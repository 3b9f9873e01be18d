// Owns the `server` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// POST /api/run_backtest on 31 days of M5 data held by the dataset store (generated, deterministic:
// a seeded random walk with EURUSD-like volatility, imported through the same code path as the
// official files), through the real app over HTTP on loopback, SQLite (the embedded default):
// server-side time per call (the Server-Timing header: validation, data loading, the credit
// charge, the engine, the workbook, its storage and the run's row), then throughput with 20
// concurrent clients (autocannon).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { STRATEGY_KEYS } from '@bt/core/catalogue';
import { appConfig } from '../src/app/config.js';
import { createApp } from '../src/app/createApp.js';
import { systemClock } from '../src/clock/index.js';
import { migrate, openDatabase } from '../src/db/index.js';
import { DisabledMailer } from '../src/mail/index.js';
import { MemoryRateLimiter } from '../src/ratelimit/limiter.js';
import { LocalStorage } from '../src/storage/index.js';
import { PythonSandbox } from '../src/strategies/sandbox/sandbox.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { quantile } from './quantile.js';
import { syntheticCandles } from '../../core/bench/synthetic.js';

const SECTION = 'server';
const M5 = 300_000;
const SEQUENTIAL_ROUNDS = 2; // every official strategy, twice
const AUTOCANNON_RUNS = 3;
const AUTOCANNON_SECONDS = 10;
const CONNECTIONS = 20;

const median = (values: number[]) => quantile(values, 0.5);
const timing = (header: string | null, name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(header ?? '')?.[1] ?? NaN);

async function bench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bt-bench-server-'));
  const load = loadavg()[0];
  const db = await openDatabase(`sqlite:${join(dir, 'bt.sqlite')}`, { dataDir: dir });
  await migrate(db.sequelize);
  const app = createApp({
    db,
    storage: new LocalStorage(join(dir, 'files')),
    library: new LocalStorage(join(dir, 'library')),
    sandbox: new PythonSandbox({ ready: false, missing: 'python', reason: 'not used by this benchmark' }),
    llm: null,
    clock: systemClock,
    mailer: new DisabledMailer(),
    identityProviders: [],
    rateLimiter: new MemoryRateLimiter(systemClock),
    log: () => {},
    // No API rate limit here: 20 clients hammer one key on purpose.
    config: appConfig({ publicUrl: 'http://bench.local', rateLimits: { login: null, loginAccount: null, register: null, reset: null, verify: null, support: null, api: null } }),
  });
  // Two months of M5 (the period and its warm-up), through the store's import path.
  // A reproducible M5 random walk (about 2.7 pips of noise per candle), the benchmarks' generator.
  const from = Date.UTC(2025, 11, 1);
  const candles = syntheticCandles(Math.floor((Date.UTC(2026, 1, 1) - from) / M5), { seed: 7, stepMs: M5, start: from, sigma: 0.00027 });
  await app.services.datasets.importSeries(candles, { symbol: 'EURUSD', timeframe: 'M5', source: 'bench: generated' });

  // Count requests in flight, so the database is closed only once the last queued backtest ends.
  let inFlight = 0;
  const handle = app.callback();
  const server = createServer((req, res) => {
    inFlight++;
    // Koa's handler resolves when the request's work is done (the client may have gone already).
    void Promise.resolve(handle(req, res)).finally(() => inFlight--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const registered = (await (await fetch(`${url}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Bench', last_name: 'Mark', email: 'bench@bt.local', username: 'bench', password: 'benchmark-password' }) })).json()) as { token: string };
  const key = registered.token as string;
  const me = (await (await fetch(`${url}/api/me`, { headers: { 'x-api-key': key } })).json()) as { id: number };
  await app.services.ledger.grant(me.id, 1_000_000, 'admin');

  const body = (strategy: string) => JSON.stringify({ strategy, symbol: 'EURUSD', timeframe: 'M5', start_date: '2026-01-01', end_date: '2026-01-31', sl_pips: 10, tp1_pips: 10, tp2_pips: 20 });
  const call = async (strategy: string) => {
    const started = performance.now();
    const res = await fetch(`${url}/api/run_backtest`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: body(strategy) });
    const answer = (await res.json()) as { summary: { trades: number }; counts: { candles: number; warmupCandles: number } };
    if (res.status !== 200) throw new Error(`${strategy}: ${res.status} ${JSON.stringify(answer)}`);
    const header = res.headers.get('server-timing');
    const phase = (name: string) => timing(header, name);
    return {
      client: performance.now() - started,
      total: phase('total'), load: phase('load'), charge: phase('charge'), engine: phase('engine'), report: phase('report'), store: phase('store'),
      trades: answer.summary.trades, candles: answer.counts.candles - answer.counts.warmupCandles,
    };
  };

  for (const strategy of STRATEGY_KEYS.slice(0, 6)) await call(strategy); // warm-up (JIT, caches)
  const samples: Awaited<ReturnType<typeof call>>[] = [];
  for (let round = 0; round < SEQUENTIAL_ROUNDS; round++) for (const strategy of STRATEGY_KEYS) samples.push(await call(strategy));

  // How long the event loop was held while 20 clients ran backtests (the engine runs on threads).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const throughput: autocannon.Result[] = [];
  for (let i = 0; i < AUTOCANNON_RUNS; i++) {
    throughput.push(
      await autocannon({
        url: `${url}/api/run_backtest`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: body('fvg_pullback_multi_rsi'),
        connections: CONNECTIONS,
        duration: AUTOCANNON_SECONDS,
      }),
    );
  }
  loopDelay.disable();
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await db.close();
  rmSync(dir, { recursive: true, force: true });

  const total = samples.map((s) => s.total);
  const p50 = median(total);
  const byRps = [...throughput].sort((a, b) => a.requests.average - b.requests.average);
  const mid = byRps[Math.floor(byRps.length / 2)];
  const errors = throughput.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  const cpu = cpus();
  const fmt = (x: number) => x.toFixed(1);
  return [
    '## Server: POST /api/run_backtest',
    '',
    `31 days of M5 candles (${samples[0].candles.toLocaleString('en')} in the period, plus 500 of warm-up from the previous month) held by the dataset store`,
    '(generated, deterministic: a seeded random walk with EURUSD-like volatility, imported as monthly CSV + Arrow files like the official data),',
    'through the real app on loopback, SQLite (the embedded default). Server-side time = the `Server-Timing: total` of each answer: request',
    'checks, candle loading, the 2-credit charge and the run row (one transaction), core `runBacktest` (engine + statistics + workbook), the',
    'workbook written to storage and the row updated.',
    `${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '`npm run bench -w @bt/server` (packages/server/bench/run-backtest.bench.ts) rewrites this section.',
    '',
    `Sequential calls: each of the 24 official strategies ${SEQUENTIAL_ROUNDS} times (${samples.length} calls, after 6 warm-up calls).`,
    '',
    'The phases are the median of each separately (they do not add up to the total median); the rest of the total is request',
    'parsing, the answer\'s JSON and waiting for the event loop.',
    '',
    '| | p50 | p95 | max |',
    '|---|---:|---:|---:|',
    `| server-side total (ms) | **${fmt(p50)}** | ${fmt(quantile(total, 0.95))} | ${fmt(Math.max(...total))} |`,
    ...([
      ['candles from the store (Arrow months, cached)', 'load'],
      ['charge + run row (one SQLite transaction)', 'charge'],
      ['engine + statistics (core)', 'engine'],
      ['workbook (core buildReport)', 'report'],
      ['workbook written + run row updated', 'store'],
    ] as const).map(([label, k]) => `| — ${label} (ms) | ${fmt(median(samples.map((s) => s[k])))} | ${fmt(quantile(samples.map((s) => s[k]), 0.95))} | |`),
    `| client round trip (ms) | ${fmt(median(samples.map((s) => s.client)))} | ${fmt(quantile(samples.map((s) => s.client), 0.95))} | |`,
    `| trades per run | ${median(samples.map((s) => s.trades)).toFixed(0)} | ${quantile(samples.map((s) => s.trades), 0.95).toFixed(0)} | ${Math.max(...samples.map((s) => s.trades))} |`,
    '',
    `Target: p50 at most 150 ms — **${p50 <= 150 ? 'met' : 'not met'}** (${fmt(p50)} ms).`,
    '',
    `Throughput, ${CONNECTIONS} concurrent clients (autocannon, ${AUTOCANNON_SECONDS} s, ${AUTOCANNON_RUNS} runs, fvg_pullback_multi_rsi, every call a full backtest and workbook): median run`,
    `**${mid.requests.average.toFixed(1)} backtests/s** (runs: ${byRps.map((r) => r.requests.average.toFixed(1)).join(', ')}), latency p50 ${mid.latency.p50} ms, p97.5 ${mid.latency.p97_5} ms, p99 ${mid.latency.p99} ms; ${errors} non-2xx or errors.`,
    `Event loop delay during those runs (monitorEventLoopDelay, 10 ms resolution): max ${fmt(loopDelay.max / 1e6)} ms, p99 ${fmt(loopDelay.percentile(99) / 1e6)} ms.`,
    'The engine and the workbook run on worker threads (ENGINE_THREADS, default the cores; docs/queue.md): the event loop only validates, charges and',
    'stores, and concurrent clients share the cores. More throughput means more cores: bt-worker processes behind the Redis queue (docs/queue.md).',
  ].join('\n');
}


const body = await bench();
console.log(body);
console.log(`\nwritten to ${writeSection(SECTION, body)}`);
