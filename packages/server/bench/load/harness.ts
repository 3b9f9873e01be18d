// The load test (docs/PERFORMANCE.md "Load test"): for each database and mode, a fresh system under load
// (bench/load/target.ts), then each workload at each client count through autocannon, with the
// server's own event-loop delay and CPU time over the same window.
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { LibrarySet } from '../../test/support/library.js';
import { quantile } from '../quantile.js';
import { cpuWindow, localDatabasePid } from './machine-cpu.js';
import type { ProcessStats } from './process.js';
import { startTarget, LOAD_USER_PASSWORD, type Dialect, type Mode, type Target } from './target.js';
import { Recorder, requestsFor, type Sample, type Workload } from './workloads.js';

export interface LoadOptions {
  dialects: Dialect[];
  modes: Mode[];
  workloads: Workload[];
  clients: number[];
  /** Measured seconds per scenario (after `warmupSeconds` not measured). */
  durationSeconds: number;
  /**
   * When set, the measured window is this many requests instead of `durationSeconds`: a smoke run
   * then sees every kind of request answered however busy the machine is (a 2 s window on a loaded
   * machine could end with every client's backtest still running).
   */
  requests?: number | null;
  warmupSeconds: number;
  library: LibrarySet;
  users: number;
  passwordCost: number;
  loginEvery: number;
  workers: number;
  mysqlUrl: string;
  redisUrl: string;
  log: (line: string) => void;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface ScenarioReport {
  dialect: Dialect;
  mode: Mode;
  workload: Workload;
  clients: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Backtests answered 200 per second. */
  backtestsPerSecond: number;
  latency: LatencySummary;
  /** Per kind of request (run_backtest, download_xlsx, ...). */
  byKind: Record<string, LatencySummary & { non2xx: number }>;
  /** Median of each Server-Timing phase of the backtests (ms). */
  serverTiming: Record<string, { p50: number; p95: number }>;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** A few of the non-2xx answers, to say what went wrong. */
  problems: string[];
  /** The server process's event-loop delay and CPU over the measured window (workers listed apart). */
  server: ProcessStats;
  workers: ProcessStats[];
  /** A process doing nothing over the same window: the loop delay the busy machine's scheduler alone causes. */
  idle: ProcessStats;
  /** CPU of the local database server (MariaDB on this machine; null for SQLite, inside the server) and of the load client, ms over the window. */
  databaseCpuMs: number | null;
  clientCpuMs: number;
  loadAverage: { start: number; end: number };
}

export interface LoadReport {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string };
  options: Omit<LoadOptions, 'log'>;
  loadAverage: { start: number[]; end: number[] };
  scenarios: ScenarioReport[];
  /** Targets that could not run (e.g. queue mode without a worker entry), with the reason. */
  skipped: { dialect: Dialect; mode: Mode; reason: string }[];
}

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export function summarize(latencies: number[]): LatencySummary {
  if (latencies.length === 0) return { count: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  return {
    count: latencies.length,
    p50: round(quantile(latencies, 0.5)),
    p95: round(quantile(latencies, 0.95)),
    p99: round(quantile(latencies, 0.99)),
    max: round(Math.max(...latencies)),
  };
}

/** A window of `window.seconds`, or of `window.amount` requests (autocannon then ignores the duration). */
function runCannon(url: string, requests: autocannon.Request[], clients: number, window: { seconds: number; amount?: number | null }, recorder: Recorder | null): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: clients, duration: window.seconds, ...(window.amount ? { amount: window.amount } : {}), requests, timeout: 30 },
      (err: Error | null, result: autocannon.Result) => (err ? reject(err) : resolve(result)),
    );
    if (recorder) instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => recorder.latency(responseTime));
  });
}

async function runScenario(target: Target, dialect: Dialect, mode: Mode, workload: Workload, clients: number, options: LoadOptions): Promise<ScenarioReport> {
  // Enough credits for the fastest rate this machine could reach (2 per backtest), spread over the accounts.
  const seconds = options.durationSeconds + options.warmupSeconds;
  await target.topUp(Math.ceil((seconds * 400 * 2) / target.users.length));
  const config = { loginEvery: options.loginEvery, password: LOAD_USER_PASSWORD };
  if (options.warmupSeconds > 0) await runCannon(target.url, requestsFor(workload, target.users, new Recorder(), config), clients, { seconds: options.warmupSeconds }, null);

  const recorder = new Recorder();
  const load0 = loadavg()[0];
  await target.resetStats();
  const window = cpuWindow(dialect === 'mariadb' ? localDatabasePid() : null);
  const result = await runCannon(target.url, requestsFor(workload, target.users, recorder, config), clients, { seconds: options.durationSeconds, amount: options.requests }, recorder);
  const stats = await target.readStats();
  const machine = window.stop();
  const server = stats.find((p) => p.role === 'server')!;
  const workers = stats.filter((p) => p.role === 'worker');
  const idle = stats.find((p) => p.role === 'idle')!;
  const load1 = loadavg()[0];

  const samples = recorder.samples;
  const kinds = [...new Set(samples.map((s) => s.kind))];
  const byKind = Object.fromEntries(
    kinds.map((kind) => {
      const of = samples.filter((s) => s.kind === kind);
      return [kind, { ...summarize(of.map((s) => s.latencyMs)), non2xx: of.filter((s) => s.status < 200 || s.status >= 300).length }];
    }),
  );
  const backtests = samples.filter((s) => s.kind === 'run_backtest' && s.status === 200);
  const phaseNames = [...new Set(backtests.flatMap((s) => Object.keys(s.phases ?? {})))];
  const serverTiming = Object.fromEntries(
    phaseNames.map((name) => {
      const values = backtests.map((s) => s.phases?.[name]).filter((v): v is number => typeof v === 'number');
      return [name, { p50: round(quantile(values, 0.5)), p95: round(quantile(values, 0.95)) }];
    }),
  );
  const elapsed = server.wallMs / 1000 || options.durationSeconds;
  return {
    dialect,
    mode,
    workload,
    clients,
    durationSeconds: options.durationSeconds,
    requests: samples.length,
    requestsPerSecond: round(samples.length / elapsed),
    backtestsPerSecond: round(backtests.length / elapsed),
    latency: summarize(samples.map((s: Sample) => s.latencyMs)),
    byKind,
    serverTiming,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: samples.filter((s) => s.status < 200 || s.status >= 300).length,
    problems: recorder.problems,
    server,
    workers,
    idle,
    databaseCpuMs: machine.databaseCpuMs,
    clientCpuMs: machine.clientCpuMs,
    loadAverage: { start: round(load0, 2), end: round(load1, 2) },
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const cpu = cpus();
  const report: LoadReport = {
    date: new Date().toISOString(),
    machine: { cpu: cpu[0]?.model.trim() ?? 'unknown CPU', cores: cpu.length, memoryGb: Math.round(totalmem() / 1024 ** 3), node: process.version },
    options: (({ log: _log, ...rest }) => rest)(options),
    loadAverage: { start: loadavg().map((x) => round(x, 2)), end: [] },
    scenarios: [],
    skipped: [],
  };
  for (const dialect of options.dialects) {
    for (const mode of options.modes) {
      options.log(`${dialect}, ${mode}:`);
      let target: Target;
      try {
        target = await startTarget({ dialect, mode, library: options.library, mysqlUrl: options.mysqlUrl, redisUrl: options.redisUrl, workers: options.workers, users: options.users, passwordCost: options.passwordCost, log: options.log });
      } catch (err) {
        // Queue mode needs the worker entry and Redis; without them the rest still runs, and the report says why.
        if (mode !== 'queue') throw err;
        // Said in the document: paths relative to the repository.
        const reason = (err as Error).message.split('\n')[0].replaceAll(REPO_ROOT, '');
        options.log(`  skipped: ${reason}`);
        report.skipped.push({ dialect, mode, reason });
        continue;
      }
      try {
        for (const workload of options.workloads) {
          for (const clients of options.clients) {
            const scenario = await runScenario(target, dialect, mode, workload, clients, options);
            report.scenarios.push(scenario);
            options.log(
              `  ${workload}, ${clients} client(s): ${scenario.requestsPerSecond} req/s, ${scenario.backtestsPerSecond} backtests/s, p50 ${scenario.latency.p50} ms, p95 ${scenario.latency.p95} ms, p99 ${scenario.latency.p99} ms, ` +
                `server total p50 ${scenario.serverTiming.total?.p50 ?? '-'} ms, errors ${scenario.errors + scenario.timeouts}, non-2xx ${scenario.non2xx}, ` +
                `loop delay max ${scenario.server.loopDelay.max} ms (p99 ${scenario.server.loopDelay.p99}; idle process ${scenario.idle.loopDelay.max}), load ${scenario.loadAverage.start}→${scenario.loadAverage.end}`,
            );
            for (const problem of scenario.problems) options.log(`    ${problem}`);
          }
        }
      } finally {
        await target.close();
      }
    }
  }
  report.loadAverage.end = loadavg().map((x) => round(x, 2));
  return report;
}
