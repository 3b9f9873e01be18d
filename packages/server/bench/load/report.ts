// The `load` section of docs/PERFORMANCE.md, from a LoadReport (bench/load/harness.ts).
import type { LoadReport, ScenarioReport } from './harness.js';

const DB = { sqlite: 'SQLite', mariadb: 'MariaDB' } as const;
const MODE = { inprocess: 'in-process', queue: 'queue + workers' } as const;
const PHASES = ['total', 'load', 'charge', 'engine', 'report', 'store'] as const;
const KINDS = ['health', 'datasets', 'top_strategy', 'list_backtests', 'run_backtest', 'download_xlsx', 'login'] as const;

const n = (x: number, digits = 1) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The scale-out targets (one client p50 ≤ 15 ms; 20 clients ≥ 100 runs/s, p95 ≤ 400 ms), checked against the scenarios that measure them. */
export interface TargetCheck {
  label: string;
  met: boolean;
  detail: string;
}

export function checkTargets(report: LoadReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const groups = [...new Set(report.scenarios.map((s) => `${s.dialect}/${s.mode}`))];
  for (const group of groups) {
    const of = report.scenarios.filter((s) => `${s.dialect}/${s.mode}` === group);
    const name = `${DB[of[0].dialect]}, ${MODE[of[0].mode]}`;
    const one = of.find((s) => s.workload === 'backtest' && s.clients === 1);
    if (one) {
      const p50 = one.serverTiming.total?.p50 ?? NaN;
      checks.push({ label: `${name}: one client, server total p50 ≤ 15 ms`, met: p50 <= 15, detail: `${n(p50)} ms` });
    }
    const twenty = of.find((s) => s.workload === 'backtest' && s.clients === 20);
    if (twenty) {
      const failures = twenty.errors + twenty.timeouts + twenty.non2xx;
      // The API server's loop: in queue mode the workers' loops run the backtests, which is their job.
      const loop = twenty.server.loopDelay.max;
      checks.push({
        label: `${name}: 20 clients, ≥ 100 runs/s, p95 ≤ 400 ms, no error, event loop never blocked > 50 ms`,
        met: twenty.backtestsPerSecond >= 100 && twenty.latency.p95 <= 400 && failures === 0 && loop <= 50,
        detail: `${n(twenty.backtestsPerSecond)} runs/s, p95 ${n(twenty.latency.p95, 0)} ms, ${failures} errors, loop delay max ${n(loop)} ms (idle process: ${n(twenty.idle.loopDelay.max)} ms)`,
      });
    }
  }
  return checks;
}

function scenarioRow(s: ScenarioReport): string {
  const failures = s.errors + s.timeouts;
  const cpuShare = s.server.wallMs ? (s.server.cpuMs / s.server.wallMs) * 100 : 0;
  const workerCpu = s.workers.length ? ` + ${s.workers.map((w) => n(w.wallMs ? (w.cpuMs / w.wallMs) * 100 : 0, 0)).join(' + ')}` : '';
  return `| ${DB[s.dialect]} | ${MODE[s.mode]} | ${s.workload} | ${s.clients} | ${n(s.requestsPerSecond)} | **${n(s.backtestsPerSecond)}** | ${n(s.latency.p50)} | ${n(s.latency.p95)} | ${n(s.latency.p99)} | ${failures} / ${s.non2xx} | ${s.serverTiming.total ? n(s.serverTiming.total.p50) : '–'} | ${n(s.server.loopDelay.max)} / ${n(s.server.loopDelay.p99)} | ${n(s.server.gc.maxMs)} | ${n(s.idle.loopDelay.max)} | ${n(cpuShare, 0)}${workerCpu} % | ${s.requests ? n((s.server.cpuMs + s.workers.reduce((t, w) => t + w.cpuMs, 0)) / s.requests) : '–'} | ${n(s.loadAverage.start)} → ${n(s.loadAverage.end)} |`;
}

function cpuRow(s: ScenarioReport): string {
  const per = (ms: number | null | undefined) => (ms === null || ms === undefined || !s.requests ? null : ms / s.requests);
  const main = per(s.server.mainCpuMs);
  const other = main === null ? null : per(s.server.cpuMs - (s.server.mainCpuMs ?? 0));
  const workers = s.workers.length ? per(s.workers.reduce((t, w) => t + w.cpuMs, 0)) : 0;
  // SQLite works inside the server process: its CPU is the server's.
  const database = s.dialect === 'sqlite' ? 0 : per(s.databaseCpuMs);
  const client = per(s.clientCpuMs);
  const parts = [per(s.server.cpuMs), workers, database, client];
  const total = parts.every((x) => x !== null) ? parts.reduce((t: number, x) => t + (x as number), 0) : null;
  const cell = (x: number | null) => (x === null ? '–' : n(x, 2));
  return `| ${DB[s.dialect]} | ${MODE[s.mode]} | ${s.workload} | ${s.clients} | ${cell(main)} | ${cell(other)} | ${s.workers.length ? cell(workers) : '–'} | ${s.dialect === 'sqlite' ? '(in the server)' : cell(database)} | ${cell(client)} | ${cell(total)} |`;
}

export function renderSection(report: LoadReport): string {
  const o = report.options;
  const m = report.machine;
  const mixed = report.scenarios.filter((s) => s.workload === 'mixed');
  const lines = [
    '## Load test: the server under concurrent clients',
    '',
    '`npm run load` (packages/server/bench/load/run.ts) rewrites this section; `npm run load -- --quick` is a smoke run that leaves it alone.',
    `${m.cpu}, ${m.cores} cores shared with other work, ${m.memoryGb} GB, Node ${m.node}, ${report.date.slice(0, 16).replace('T', ' ')} UTC.`,
    `1-minute load average ${n(report.loadAverage.start[0])} at the start and ${n(report.loadAverage.end[0] ?? NaN)} at the end (per scenario in the table): the client (autocannon) runs on the same 2 cores as the server, so every number here is a floor for a dedicated machine.`,
    '',
    'Each database and mode gets a fresh system: a new database (SQLite file; MariaDB: a database created on 127.0.0.1:3306 and dropped after), a data',
    `directory holding the ${o.library === 'full' ? 'full seeded library (the 32 instruments of fixtures/, as `npm start` seeds it)' : 'basic seeded library (EURUSD H1 and M15, one Euro Stoxx month)'}, the real server started from source`,
    '(`src/main.ts` through bench/load/process.ts, which measures its event-loop delay and CPU time), rate limits off, and',
    `${o.users} accounts topped up with credits by the admin API. Each scenario: ${o.warmupSeconds} s of warm-up, then ${o.requests ? `${o.requests} requests` : `${o.durationSeconds} s`} measured.`,
    '',
    '- **backtest**: every call is the official run (`POST /api/run_backtest`, fvg_pullback_multi on EURUSD M15, 2023-01-01 → 2023-01-31, SL 10 / TP1 10 / TP2 20),',
    '  the accounts taken in turn.',
    '- **mixed**: a visit, looped by each client: `GET /api/health`, `/api/datasets`, `/api/top-strategy`, the account\'s `/api/user/backtests`, a',
    `  backtest (the 24 official strategies in turn), the workbook it wrote (\`GET /api/download/{file}\`), and a \`POST /api/login\` every ${o.loginEvery} visits`,
    `  (scrypt at 2^${o.passwordCost}, not the production 2^17: at 380 ms of CPU a login would turn the mixed workload into a scrypt benchmark; \`--password-cost 17\` measures it).`,
    '',
    'Latencies are the client\'s (autocannon, every answer), in ms. "Server total" is the median `Server-Timing: total` of the backtests. Event-loop delay is',
    'measured inside the server with `perf_hooks.monitorEventLoopDelay` (1 ms timer, reset at the start of each measured window): the longest gap between',
    'two ticks (the longest time the loop was busy with one thing, or waited for a core) and the 99th percentile of the ticks. "Idle process" is the same',
    'measure in a process that does nothing, over the same window: what the busy machine\'s scheduler alone costs a loop; a server figure well above it is',
    'the server\'s own blocking, by its code or by a garbage collection (the longest GC pause of the window is shown beside it). Server CPU is the process\'s (all threads) over the window, as a share of one core (workers after the +); CPU ms per',
    'request (server and workers) is the figure the machine\'s load changes least.',
    '',
    '| database | mode | workload | clients | req/s | backtests/s | p50 | p95 | p99 | errors / non-2xx | server total p50 | loop delay max / p99 | longest GC pause | idle process max | server CPU | CPU ms / request | load avg |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...report.scenarios.map(scenarioRow),
    '',
    'Server-Timing phases of the backtests, median (p95) in ms: the charge is the credit charge and the run row (one transaction), store is the workbook',
    'written and the row updated.',
    '',
    `| database | mode | workload | clients | ${PHASES.join(' | ')} |`,
    `|---|---|---|---:|${PHASES.map(() => '---:').join('|')}|`,
    ...report.scenarios
      .filter((s) => s.serverTiming.total)
      .map((s) => `| ${DB[s.dialect]} | ${MODE[s.mode]} | ${s.workload} | ${s.clients} | ${PHASES.map((p) => (s.serverTiming[p] ? `${n(s.serverTiming[p].p50)} (${n(s.serverTiming[p].p95)})` : '–')).join(' | ')} |`),
  ];
  lines.push(
    '',
    'Where the cores went, CPU ms per request over the measured window: the server\'s main thread (the event loop) and its other threads',
    '(engine and workbook pool, I/O), the workers, the MariaDB server on this machine (for SQLite the database works inside the server) and',
    'the load client (autocannon, in the harness process). Their sum over the machine\'s 2 cores bounds the requests per second.',
    '',
    '| database | mode | workload | clients | server main thread | server other threads | workers | database server | load client | total |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...report.scenarios.map(cpuRow),
  );
  if (mixed.length) {
    lines.push(
      '',
      'Mixed workload by request, p50 / p95 in ms (non-2xx in brackets when any):',
      '',
      `| database | mode | clients | ${KINDS.join(' | ')} |`,
      `|---|---|---:|${KINDS.map(() => '---:').join('|')}|`,
      ...mixed.map((s) => `| ${DB[s.dialect]} | ${MODE[s.mode]} | ${s.clients} | ${KINDS.map((k) => (s.byKind[k] ? `${n(s.byKind[k].p50)} / ${n(s.byKind[k].p95)}${s.byKind[k].non2xx ? ` [${s.byKind[k].non2xx}]` : ''}` : '–')).join(' | ')} |`),
    );
  }
  const problems = report.scenarios.filter((s) => s.problems.length);
  if (problems.length) {
    lines.push('', 'First failed answers:', '');
    for (const s of problems) lines.push(`- ${DB[s.dialect]}, ${MODE[s.mode]}, ${s.workload}, ${s.clients} client(s): ${s.problems.map((p) => `\`${p.replace(/`/g, "'").replace(/\s+/g, ' ')}\``).join('; ')}`);
  }
  lines.push('', 'Targets (scale-out; benchmarks, not timed tests):', '');
  const checks = checkTargets(report);
  for (const c of checks) lines.push(`- ${c.label}: **${c.met ? 'met' : 'not met'}** (${c.detail}).`);
  if (checks.length === 0) lines.push('- (no scenario of this run measures them: run the backtest workload at 1 and 20 clients)');
  for (const s of report.skipped) lines.push(`- ${DB[s.dialect]}, ${MODE[s.mode]}: not measured — ${s.reason}`);
  return lines.join('\n');
}
