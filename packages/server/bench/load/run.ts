// `npm run load` (root) = `npm run load -w @bt/server`: the load test, written to the `load`
// section of docs/PERFORMANCE.md. Options (docs/PERFORMANCE.md, section load):
//   --quick                 3 s per scenario, 1 s warm-up, the basic library; the document is not rewritten
//   --db sqlite,mariadb     --mode inprocess,queue (or --queue)   --workload backtest,mixed   --clients 1,20
//   --duration S (or --requests N: a window of N requests, for smoke runs on a busy machine)  --warmup S  --users N  --workers N  --password-cost 14..20  --login-every N
//   --json FILE (the whole report)   --no-doc
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeSection } from '../../../../scripts/performance-doc.mjs';
import { runLoad, type LoadOptions } from './harness.js';
import { renderSection } from './report.js';
import { closeAllTargets, type Dialect, type Mode } from './target.js';
import type { Workload } from './workloads.js';

export const SECTION = 'load';

function list<T extends string>(name: string, raw: string, allowed: readonly T[]): T[] {
  const values = raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
  for (const v of values) if (!(allowed as readonly string[]).includes(v)) throw new Error(`--${name}: ${v} (expected ${allowed.join(', ')})`);
  if (values.length === 0) throw new Error(`--${name}: empty`);
  return values as T[];
}

function int(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name}: ${raw} (expected an integer from ${min} to ${max})`);
  return value;
}

export function parseLoadArgs(argv: string[]): { options: Omit<LoadOptions, 'log'>; json: string | null; doc: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      db: { type: 'string', default: 'sqlite,mariadb' },
      mode: { type: 'string', default: 'inprocess' },
      queue: { type: 'boolean', default: false },
      workload: { type: 'string', default: 'backtest,mixed' },
      clients: { type: 'string', default: '1,20' },
      duration: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      users: { type: 'string', default: '40' },
      workers: { type: 'string', default: '2' },
      'password-cost': { type: 'string', default: '14' },
      'login-every': { type: 'string', default: '10' },
      library: { type: 'string' },
      json: { type: 'string' },
      'no-doc': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const quick = values.quick!;
  const modes = values.queue ? (['inprocess', 'queue'] as Mode[]) : list('mode', values.mode!, ['inprocess', 'queue'] as const);
  return {
    options: {
      dialects: list('db', values.db!, ['sqlite', 'mariadb'] as const) as Dialect[],
      modes,
      workloads: list('workload', values.workload!, ['backtest', 'mixed'] as const) as Workload[],
      clients: values.clients!.split(',').map((c) => int('clients', c.trim(), 1, 1000)),
      durationSeconds: int('duration', values.duration ?? (quick ? '3' : '20'), 1, 3600),
      requests: values.requests === undefined ? null : int('requests', values.requests, 1, 10_000_000),
      warmupSeconds: int('warmup', values.warmup ?? (quick ? '1' : '3'), 0, 600),
      library: list('library', values.library ?? (quick ? 'basic' : 'full'), ['basic', 'full'] as const)[0],
      users: int('users', values.users!, 1, 1000),
      workers: int('workers', values.workers!, 1, 64),
      passwordCost: int('password-cost', values['password-cost']!, 14, 20),
      loginEvery: int('login-every', values['login-every']!, 1, 1_000_000),
      mysqlUrl: process.env.BT_LOAD_MYSQL_URL ?? process.env.BT_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
      redisUrl: process.env.BT_LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379/11',
    },
    json: values.json ?? null,
    // A smoke run's numbers are not worth committing.
    doc: !values['no-doc'] && !quick,
  };
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bench/load/run.ts');
if (isMain) {
  const { options, json, doc } = parseLoadArgs(process.argv.slice(2));
  // Ctrl-C reaches this process more than once (the terminal's group, then npm and tsx relaying it):
  // every one is handled, so none ends the process before the databases are dropped.
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) return;
    interrupted = true;
    console.log('interrupted: stopping the servers and dropping their databases');
    void closeAllTargets().finally(() => process.exit(130));
  });
  const report = await runLoad({ ...options, log: (line) => console.log(line) });
  if (json) writeFileSync(json, JSON.stringify(report, null, 2));
  const body = renderSection(report);
  console.log(`\n${body}`);
  if (doc) console.log(`\nwritten to ${writeSection(SECTION, body)}`);
}
