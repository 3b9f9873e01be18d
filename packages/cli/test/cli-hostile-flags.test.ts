// Every value a flag, an argument or a plan field takes, hostile: each command's every
// value-taking option (read from the program itself, so a new option is swept without being
// listed), each positional argument and each field of a batch or golden plan gets values no one
// should type. Each run must end as bt promises (docs/cli.md): exit 0, 1 or 2 with a `bt: `
// sentence, never a JavaScript error, a hang, or a success that prints NaN, undefined or
// Infinity. The runs go through the built CLI's `main` in one process
// (test/support/flag-sweep-runner.ts), in a folder three levels inside a temporary one, so that
// the `../..` values write inside it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { createProgram } from '../src/program.js';
import { cliDir, EURUSD_H1, root, scriptArgs, tempDir } from './helpers.js';

/** A command's valid invocation (its expected exit: admin calls find no server), and the indexes of its positional arguments. */
interface Base {
  args: string[];
  exit: 0 | 1;
  positional?: number[];
}

const DATA = 'EURUSD_H1.csv';
const ADMIN = { exit: 1 as const };
const BASES: Record<string, Base> = {
  backtest: { args: ['backtest', '--data', DATA, '--strategy', 'fvg_pullback_multi', '--sl', '20', '--tp1', '20'], exit: 0 },
  batch: { args: ['batch', 'plan.yaml', '--no-progress', '--concurrency', '1'], exit: 0, positional: [1] },
  optimize: { args: ['optimize', '--data', DATA, '--strategy', 'englobante_entry', '--sl', '10,20', '--tp1', '20', '--concurrency', '1', '--no-progress'], exit: 0 },
  'walk-forward': {
    args: ['walk-forward', '--data', DATA, '--strategy', 'englobante_entry', '--sl', '10,20', '--tp1', '20', '--in-sample', '120d', '--out-of-sample', '60d', '--concurrency', '1', '--no-progress'],
    exit: 0,
  },
  validate: { args: ['validate', DATA], exit: 0, positional: [1] },
  enrich: { args: ['enrich', DATA, '--output', 'enriched.csv'], exit: 0, positional: [1] },
  convert: { args: ['convert', DATA, 'converted.csv'], exit: 0, positional: [1, 2] },
  zones: { args: ['zones', '--data', DATA, '--pattern', 'fvg', '--json'], exit: 0 },
  strategies: { args: ['strategies'], exit: 0 },
  params: { args: ['params', 'fvg_pullback_multi'], exit: 0, positional: [1] },
  symbols: { args: ['symbols'], exit: 0 },
  report: { args: ['report', 'run.xlsx', '--limit', '3'], exit: 0, positional: [1] },
  regress: { args: ['regress', join(root, 'fixtures/golden/plan.json'), '--scenario', 'eurusd-h1'], exit: 0, positional: [1] },
  'admin users': { args: ['admin', 'users'], ...ADMIN },
  'admin credit': { args: ['admin', 'credit', 'add', '12'], ...ADMIN, positional: [2, 3] },
  'admin user delete': { args: ['admin', 'user', 'delete', '12', '--yes'], ...ADMIN, positional: [3] },
  'admin history reset': { args: ['admin', 'history', 'reset', '--yes'], ...ADMIN },
  'admin metrics overview': { args: ['admin', 'metrics', 'overview'], ...ADMIN },
  'admin metrics breakdown': { args: ['admin', 'metrics', 'breakdown', 'heatmap'], ...ADMIN, positional: [3] },
  'admin metrics reset': { args: ['admin', 'metrics', 'reset', '--yes'], ...ADMIN },
  'admin metrics rebuild': { args: ['admin', 'metrics', 'rebuild'], ...ADMIN },
  'admin reindex': { args: ['admin', 'reindex'], ...ADMIN },
  'admin import-output': { args: ['admin', 'import-output', 'month.zip', '--month', '2026-01', '--no-progress'], ...ADMIN, positional: [2] },
  'admin email-recreate list': { args: ['admin', 'email-recreate', 'list'], ...ADMIN },
  'admin email-recreate reset': { args: ['admin', 'email-recreate', 'reset', 'someone@example.com'], ...ADMIN, positional: [3] },
  'admin archive list': { args: ['admin', 'archive', 'list'], ...ADMIN },
  'admin archive restore-all': { args: ['admin', 'archive', 'restore-all', '--type', 'gpt'], ...ADMIN },
  'admin invoices list': { args: ['admin', 'invoices', 'list'], ...ADMIN },
  'admin invoices download': { args: ['admin', 'invoices', 'download', '2026/F-2026-000001.pdf', '-o', 'invoice.pdf'], ...ADMIN, positional: [3] },
  'admin payments attention': { args: ['admin', 'payments', 'attention'], ...ADMIN },
  'admin payments resolve': { args: ['admin', 'payments', 'resolve', '7', '--note', 'remboursé'], ...ADMIN, positional: [3] },
};
/** Commands with no value to sweep or that need a terminal. */
const SKIPPED = new Set(['tui']);

/** Values no flag expects (argv cannot hold a NUL). */
const HOSTILE = ['', ' ', '-1', '0', '1e309', 'NaN', '0.5', '99999999999999999999', 'a,b', '..', 'é'.repeat(300), '../../swept.out', '%s%n{}'];

/** Every command with its value-taking options, by path ("admin metrics overview"). */
function valueOptions(program: Command): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const name = [...path, sub.name()];
      const flags = sub.options.filter((o) => o.required || o.optional).map((o) => o.long!);
      if (sub.commands.length === 0) found.set(name.join(' '), flags);
      walk(sub, name);
    }
  };
  walk(program, []);
  return found;
}

/** The base with `--flag=value` in place of the flag's own value, or added. */
function withFlag(args: string[], flag: string, value: string): string[] {
  const at = args.indexOf(flag);
  if (at < 0) return [...args, `${flag}=${value}`];
  const known = args[at + 1] !== undefined && !args[at + 1].startsWith('-');
  return [...args.slice(0, at), `${flag}=${value}`, ...args.slice(at + (known ? 2 : 1))];
}

interface Result {
  args: string[];
  code: number | 'timeout' | 'threw';
  stdout: string;
  stderr: string;
  ms: number;
}

/** A loopback port nothing listens on: the admin calls are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function sweep(cwd: string, runs: string[][], out: string): Promise<Result[]> {
  const job = join(cwd, '..', 'job.json');
  writeFileSync(job, JSON.stringify({ cwd, runs, timeoutMs: 60_000 }));
  const api = `http://127.0.0.1:${await closedPort()}`;
  const status = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [...scriptArgs('test/support/flag-sweep-runner'), job, out], {
      cwd: cliDir,
      // Stacks printed (BT_DEBUG) so that a JavaScript error shows its class; admin calls go to a closed port.
      env: { ...process.env, BT_DEBUG: '1', NO_COLOR: '1', BT_API_URL: api, BT_API_KEY: 'k', BT_API_TIMEOUT: '5' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => resolve(code));
  });
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Result | { start: string[] });
  const last = lines.at(-1)!;
  assert.ok(!('start' in last), `the sweep's process ended (${status}) during: bt ${'start' in last ? last.start.join(' ') : ''}`);
  assert.equal(status, 0, 'the sweep process ends normally');
  return lines.filter((l): l is Result => !('start' in l));
}

const JS_ERROR = /^(TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError)\b|Maximum call stack|\(main threw\)/m;
const NOT_A_NUMBER = /\bNaN\b|\bundefined\b|\bInfinity\b|\[object Object\]/;

function verdict(result: Result, base: Base | null): string | null {
  const { code, stdout, stderr } = result;
  if (code === 'timeout') return 'no answer within 60 s';
  if (code === 'threw') return `main threw: ${stderr}`;
  if (![0, 1, 2].includes(code)) return `exit ${code}`;
  if (JS_ERROR.test(stderr)) return `a JavaScript error: ${stderr.slice(0, 600)}`;
  if (code !== 0 && !stderr.startsWith('bt: ')) return `exit ${code} without a bt: sentence: ${stderr.slice(0, 300)}`;
  // Unless the value itself says it (`--out NaN` names a folder NaN).
  if (code === 0 && NOT_A_NUMBER.test(stdout) && !result.args.some((a) => NOT_A_NUMBER.test(a))) return `printed ${NOT_A_NUMBER.exec(stdout)![0]}: ${stdout.slice(0, 600)}`;
  if (base && code !== base.exit) return `the base exits ${code}, expected ${base.exit}: ${stderr.slice(0, 300)}`;
  return null;
}

/** Plan values no field expects, as JSON (every plan may be JSON or YAML). */
const HOSTILE_PLAN_VALUES: unknown[] = [null, true, -1, 0, 1e308, 9007199254740993, '', '1e400', 'NaN', '../../swept', 'é'.repeat(300), [], [[]], {}, { a: { b: 1 } }];

/** A copy of `plan` with `value` at `path` (dot-separated, numbers index lists). */
function withValue(plan: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(plan) as Record<string, unknown>;
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys.at(-1)!] = value;
  return copy;
}

describe('bt with hostile flag and argument values', () => {
  it('ends every run with exit 0, 1 or 2 and a sentence, never a JavaScript error, a hang or NaN', { timeout: 900_000 }, async () => {
    const options = valueOptions(createProgram());
    const swept = [...options.keys()].filter((path) => !SKIPPED.has(path));
    assert.deepEqual(swept.filter((path) => !BASES[path]), [], 'every command has a base invocation here');

    const work = tempDir('bt-cli-hostile-flags-');
    try {
      const cwd = join(work.dir, 'a', 'b', 'c');
      mkdirSync(cwd, { recursive: true });
      copyFileSync(EURUSD_H1, join(cwd, DATA));
      writeFileSync(join(cwd, 'plan.yaml'), `strategies: [englobante_entry]\ndata: [${DATA}]\nsl: 20\ntp1: 20\n`);
      writeFileSync(join(cwd, 'month.zip'), Buffer.alloc(1000, 1));
      // The workbook `bt report` reads, written by a run first.
      const [prepared] = await sweep(cwd, [['backtest', '--data', DATA, '--strategy', 'englobante_entry', '--sl', '20', '--tp1', '20', '--out', 'books']], join(work.dir, 'prepared.jsonl'));
      assert.equal(prepared.code, 0, prepared.stderr);
      const book = readdirSync(join(cwd, 'books'), { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.xlsx'));
      assert.ok(book, 'the workbook is written');
      copyFileSync(join(cwd, 'books', book), join(cwd, 'run.xlsx'));

      const runs: string[][] = [];
      const bases = new Map<string, string>();
      for (const path of swept) {
        const base = BASES[path];
        bases.set(JSON.stringify(base.args), path);
        runs.push(base.args);
        for (const flag of options.get(path)!) for (const value of HOSTILE) runs.push(withFlag(base.args, flag, value));
        for (const at of base.positional ?? []) for (const value of HOSTILE) runs.push(base.args.map((a, i) => (i === at ? value : a)));
      }
      const started = Date.now();
      const rest = await sweep(cwd, runs, join(work.dir, 'results.jsonl'));
      assert.equal(rest.length, runs.length);
      const failures: string[] = [];
      for (const result of rest) {
        const path = bases.get(JSON.stringify(result.args));
        const why = verdict(result, path ? BASES[path] : null);
        if (why) failures.push(`bt ${result.args.map((a) => (a.length > 40 ? `${a.slice(0, 20)}…(${a.length})` : a)).join(' ')}\n  → ${why}`);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${rest.length} runs`);
      const codes = rest.reduce((c, r) => ({ ...c, [String(r.code)]: (c[String(r.code)] ?? 0) + 1 }), {} as Record<string, number>);
      // Most hostile values are refused as usage errors; some are accepted (a path, a label).
      assert.ok(codes['2'] > rest.length / 3, JSON.stringify(codes));
      console.log(`# ${rest.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s, by exit code: ${JSON.stringify(codes)}`);
    } finally {
      work.remove();
    }
  });

  it('plans (batch, regress) with a hostile value in each field end the same way, naming the place', { timeout: 900_000 }, async () => {
    const work = tempDir('bt-cli-hostile-plans-');
    try {
      const cwd = join(work.dir, 'a', 'b', 'c');
      mkdirSync(cwd, { recursive: true });
      copyFileSync(EURUSD_H1, join(cwd, DATA));
      const batch = { version: 1, name: 'swept', strategies: ['fvg_pullback_multi'], data: [{ path: DATA, symbol: 'EURUSD', timeframe: 'H1', from: '2017-06-01', to: '2017-07-31' }], sl: 20, tp1: 20, tp2: 40, sl_mode: 'external', params: { min_wait_candles: 1 }, from: '2017-06-01', to: '2017-07-31' };
      const batchFields = ['version', 'name', 'strategies', 'strategies.0', 'data', 'data.0', 'data.0.path', 'data.0.symbol', 'data.0.timeframe', 'data.0.from', 'data.0.to', 'sl', 'tp1', 'tp2', 'sl_mode', 'params', 'params.min_wait_candles', 'from', 'to', 'out', 'unknown'];
      const golden = {
        version: 1,
        fixtures: '.',
        scenarios: [{ name: 'june', file: DATA, read: { symbol: 'EURUSD' }, request: { symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40, from: '2017-06-01T00:00:00Z', to: '2017-06-30T23:00:00Z' }, params: { pullback: { max_touch: 2 }, signal: { confirm_candle: true } } }],
      };
      const goldenFields = ['version', 'fixtures', 'scenarios', 'scenarios.0', 'scenarios.0.name', 'scenarios.0.file', 'scenarios.0.read', 'scenarios.0.read.symbol', 'scenarios.0.request', 'scenarios.0.request.slPips', 'scenarios.0.request.from', 'scenarios.0.request.to', 'scenarios.0.params', 'scenarios.0.params.pullback'];
      writeFileSync(join(cwd, 'batch.json'), JSON.stringify(batch));
      writeFileSync(join(cwd, 'golden.json'), JSON.stringify(golden));
      // The golden file the base plan is checked against.
      const [updated] = await sweep(cwd, [['regress', 'golden.json', '--update', '--note', 'the sweep\'s base']], join(work.dir, 'prepared.jsonl'));
      assert.equal(updated.code, 0, updated.stderr);

      const runs: string[][] = [['batch', 'batch.json', '--no-progress', '--concurrency', '1', '--csv', 'runs.csv'], ['regress', 'golden.json']];
      let n = 0;
      for (const [kind, plan, fields] of [['batch', batch, batchFields], ['regress', golden, goldenFields]] as const) {
        for (const field of fields) {
          for (const value of HOSTILE_PLAN_VALUES) {
            const file = `${kind}-${++n}.json`;
            writeFileSync(join(cwd, file), JSON.stringify(withValue(plan, field, value)));
            runs.push(kind === 'batch' ? ['batch', file, '--no-progress', '--concurrency', '1', '--csv', 'runs.csv'] : ['regress', file]);
          }
        }
      }
      const results = await sweep(cwd, runs, join(work.dir, 'results.jsonl'));
      const [batchBase, regressBase, ...rest] = results;
      assert.deepEqual([batchBase.code, regressBase.code], [0, 0], batchBase.stderr + regressBase.stderr);
      const failures = rest.map((r) => [r, verdict(r, null)] as const).filter(([, why]) => why).map(([r, why]) => `bt ${r.args.join(' ')}: ${readFileSync(join(cwd, r.args[1]), 'utf8').slice(0, 200)}\n  → ${why}`);
      assert.deepEqual(failures, [], `${failures.length} of ${rest.length} plans`);
      // A refused plan names itself and the place in it.
      const refused = rest.filter((r) => r.code === 2);
      assert.ok(refused.length > rest.length / 2, `${refused.length} of ${rest.length} refused`);
      for (const r of refused) assert.match(r.stderr, new RegExp(`^bt: .*${r.args[1].replace('.', '\\.')}`), r.stderr);
    } finally {
      work.remove();
    }
  });
});
