import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { runLoad, type LoadReport, type ScenarioReport } from '../bench/load/harness.js';
import type { ProcessStats } from '../bench/load/process.js';
import { parseLoadArgs } from '../bench/load/run.js';
import { checkTargets, renderSection } from '../bench/load/report.js';
import { TEST_DIALECT } from './support/db.js';

const dialect = TEST_DIALECT === 'mysql' ? 'mariadb' : 'sqlite';
const MYSQL = process.env.BT_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

describe(`load test harness (npm run load, ${dialect})`, () => {
  it('--quick runs a real server under a short mixed load and reports every figure, with no error', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('bt-load-')));
    // A window of requests, not of seconds: three visits per client (seven requests each) are
    // answered in full however busy the machine (two seconds once ended, in a CI run, before any
    // backtest was answered).
    const { options, doc } = parseLoadArgs(['--quick', '--db', dialect, '--workload', 'mixed', '--clients', '2', '--requests', '42', '--warmup', '0', '--users', '3', '--login-every', '1']);
    assert.equal(options.requests, 42);
    assert.equal(doc, false, 'a smoke run leaves docs/PERFORMANCE.md alone');
    const report = await runLoad({ ...options, log: () => {} });

    assert.equal(report.scenarios.length, 1);
    const [s] = report.scenarios;
    assert.deepEqual([s.dialect, s.mode, s.workload, s.clients], [dialect, 'inprocess', 'mixed', 2]);
    assert.deepEqual([s.errors, s.timeouts, s.non2xx], [0, 0, 0], s.problems.join('\n'));
    assert.ok(s.requests >= 42 && s.requestsPerSecond > 0 && s.backtestsPerSecond > 0, `${s.requests} requests, ${s.requestsPerSecond} per second, ${s.backtestsPerSecond} backtests per second`);
    for (const kind of ['health', 'datasets', 'top_strategy', 'list_backtests', 'run_backtest', 'download_xlsx', 'login']) {
      assert.ok(s.byKind[kind]?.count > 0, `${kind} measured`);
    }
    assert.ok(s.latency.p50 > 0 && s.latency.p50 <= s.latency.p95 && s.latency.p95 <= s.latency.p99 && s.latency.p99 <= s.latency.max);
    for (const phase of ['total', 'load', 'charge', 'engine', 'report', 'store']) assert.ok(s.serverTiming[phase]?.p50 >= 0, `Server-Timing ${phase}`);
    assert.ok(s.serverTiming.total.p50 > 0, `server total p50 ${JSON.stringify(s.serverTiming)} over ${s.byKind.run_backtest?.count} backtests`);
    // Read inside the server process: a 1 ms timer ticks about once per millisecond of the window
    // (six backtests, six workbooks and six logins: well over 100 ms on any machine).
    assert.equal(s.server.role, 'server');
    assert.ok(s.server.wallMs >= 100 && s.server.loopDelay.samples > s.server.wallMs / 20, `${s.server.loopDelay.samples} samples in ${s.server.wallMs} ms`);
    assert.ok(s.server.loopDelay.max > 0 && s.server.loopDelay.p99 <= s.server.loopDelay.max);
    assert.ok(s.server.cpuMs > 0);
    assert.ok(s.server.gc.totalMs >= s.server.gc.maxMs && s.server.gc.maxMs >= 0);
    // The control: a process doing nothing over the same window (the scheduler's share of the delays).
    assert.equal(s.idle.role, 'idle');
    assert.ok(s.idle.loopDelay.samples > s.server.wallMs / 20 && s.idle.pid !== s.server.pid);
    assert.ok(Number.isFinite(s.loadAverage.start) && Number.isFinite(s.loadAverage.end));

    const section = renderSection(report);
    assert.match(section, /\| (SQLite|MariaDB) \| in-process \| mixed \| 2 \| [\d.,]+ \| \*\*[\d.,]+\*\* \|/);
    assert.match(section, /load average/);
    assert.deepEqual(checkTargets(report), [], 'no backtest-only scenario: no target judged');

    // Nothing left behind: the data directories, and the MariaDB database of the run.
    assert.deepEqual(readdirSync(tmpdir()).filter((f) => f.startsWith('bt-load-') && !before.has(f)), []);
    if (dialect === 'mariadb') {
      const conn = await createConnection(MYSQL);
      const [rows] = await conn.query(`SHOW DATABASES LIKE 'bt\\_load\\_${process.pid}\\_%'`);
      await conn.end();
      assert.deepEqual(rows, []);
    }
  });

  it('judges the issue\'s targets on the backtest-only scenarios: server total at 1 client; rate, p95, errors and the server loop at 20', () => {
    const stats = (role: string, max: number): ProcessStats => ({ type: 'stats', role, pid: 1, loopDelay: { max, p99: max / 2, p50: 1, mean: 1, samples: 1000 }, cpuMs: 1000, wallMs: 20_000, gc: { maxMs: 1, totalMs: 10 } });
    const scenario = (clients: number, total: number, rate: number, p95: number, loopMax: number, non2xx = 0): ScenarioReport => ({
      dialect: 'sqlite', mode: 'inprocess', workload: 'backtest', clients, durationSeconds: 20, requests: rate * 20, requestsPerSecond: rate, backtestsPerSecond: rate,
      latency: { count: rate * 20, p50: p95 / 2, p95, p99: p95, max: p95 }, byKind: {}, serverTiming: { total: { p50: total, p95: total } },
      errors: 0, timeouts: 0, non2xx, problems: [], server: stats('server', loopMax), workers: [stats('worker', 400)], idle: stats('idle', 5), databaseCpuMs: null, clientCpuMs: 100, loadAverage: { start: 1, end: 1 },
    });
    const report = (scenarios: ScenarioReport[]): LoadReport => ({
      date: '2026-11-26T10:00:00.000Z', machine: { cpu: 'cpu', cores: 2, memoryGb: 1, node: 'v20' }, options: {} as LoadReport['options'], loadAverage: { start: [1, 1, 1], end: [1, 1, 1] }, scenarios, skipped: [],
    });
    const met = checkTargets(report([scenario(1, 12, 70, 20, 10), scenario(20, 140, 120, 380, 45)]));
    assert.deepEqual(met.map((c) => c.met), [true, true], 'a worker\'s own loop running backtests does not count against the server\'s');
    const missed = [
      scenario(20, 140, 99, 380, 45),
      scenario(20, 140, 120, 401, 45),
      scenario(20, 140, 120, 380, 51),
      scenario(20, 140, 120, 380, 45, 1),
    ].map((s) => checkTargets(report([scenario(1, 15.1, 60, 20, 10), s])).map((c) => c.met));
    assert.deepEqual(missed, [[false, false], [false, false], [false, false], [false, false]]);
  });

  it('says where the cores went per request: server main thread and other threads, workers, the MariaDB server, the load client', () => {
    const server: ProcessStats = { type: 'stats', role: 'server', pid: 1, loopDelay: { max: 9, p99: 4, p50: 1, mean: 1, samples: 1000 }, cpuMs: 2000, mainCpuMs: 800, wallMs: 20_000, gc: { maxMs: 1, totalMs: 10 } };
    const base: Omit<ScenarioReport, 'dialect' | 'databaseCpuMs'> = {
      mode: 'inprocess', workload: 'backtest', clients: 20, durationSeconds: 20, requests: 100, requestsPerSecond: 5, backtestsPerSecond: 5,
      latency: { count: 100, p50: 1, p95: 2, p99: 3, max: 4 }, byKind: {}, serverTiming: { total: { p50: 1, p95: 2 } },
      errors: 0, timeouts: 0, non2xx: 0, problems: [], server, workers: [], idle: { ...server, role: 'idle' }, clientCpuMs: 200, loadAverage: { start: 1, end: 1 },
    };
    const section = renderSection({
      date: '2026-11-26T10:00:00.000Z', machine: { cpu: 'cpu', cores: 2, memoryGb: 1, node: 'v20' }, options: { library: 'basic', users: 1, warmupSeconds: 1, durationSeconds: 20, loginEvery: 10, passwordCost: 14 } as LoadReport['options'],
      loadAverage: { start: [1, 1, 1], end: [1, 1, 1] }, skipped: [],
      scenarios: [{ ...base, dialect: 'mariadb', databaseCpuMs: 400 }, { ...base, dialect: 'sqlite', databaseCpuMs: null }],
    });
    assert.ok(section.includes('| MariaDB | in-process | backtest | 20 | 8.00 | 12.00 | – | 4.00 | 2.00 | 26.00 |'), section);
    assert.ok(section.includes('| SQLite | in-process | backtest | 20 | 8.00 | 12.00 | – | (in the server) | 2.00 | 22.00 |'), section);
  });
});
