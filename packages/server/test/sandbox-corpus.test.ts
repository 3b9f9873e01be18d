import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { SandboxSetup } from '../src/strategies/sandbox/isolation.js';
import { BREAKOUT_PY, balance, funded, importStrategy, runBacktest } from './support/work.js';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, casesForThisPass, openTestDatabase, type TestDatabase } from './support/db.js';
import { startIdleLoop } from './support/idle-loop.js';
import { privateSandbox, survivorsOf } from './support/sandbox.js';

/**
 * The hostile corpus (docs/security.md, "The strategy sandbox"): one attack per file in
 * fixtures/hostile/, its expected outcome in its header, each sent through the real routes — the
 * import, and a backtest for the "sleepers" that behave during the import's dry run — while
 * another user keeps calling the server. Every file is refused with its code, or contained (it
 * ran and could do nothing: such files raise themselves when an attack works).
 */

const DIR = fileURLToPath(new URL('./fixtures/hostile/', import.meta.url));
const CONCURRENCY = 4;
const PWNED = '/tmp/bt-pwned';

interface Expectation {
  /** Refusal codes (one of them), or 'contained'. */
  outcomes: string[];
  /** A word the French detail must show (the attribute, the name, the exception). */
  detail?: string;
}

interface HostileFile {
  name: string;
  source: string;
  attack: string;
  import: Expectation;
  backtest?: Expectation;
}

function expectation(header: string | undefined): Expectation | undefined {
  if (!header) return undefined;
  const [outcomes, ...detail] = header.trim().split(/\s+/);
  return { outcomes: outcomes.split('|'), detail: detail.join(' ') || undefined };
}

function readCorpus(): HostileFile[] {
  return readdirSync(DIR)
    .filter((name) => name.endsWith('.py'))
    .sort()
    .map((name) => {
      const source = readFileSync(DIR + name, 'utf8');
      const header = (key: string) => new RegExp(`^# ${key}: (.+)$`, 'm').exec(source)?.[1];
      const file = { name, source, attack: header('attack') ?? '', import: expectation(header('import'))!, backtest: expectation(header('backtest')) };
      assert.ok(file.attack && file.import, `${name}: a '# attack:' and an '# import:' line are expected`);
      return file;
    });
}

/** The refusal code of a French detail (strategies/messages.ts), by its opening words. */
const DETAIL_CODES: [RegExp, string][] = [
  [/^Import interdit/, 'forbidden_import'],
  [/^Fonction interdite/, 'forbidden_name'],
  [/^Accès interdit/, 'forbidden_attribute'],
  [/^Texte interdit/, 'forbidden_string'],
  [/^Motif interdit/, 'forbidden_pattern'],
  [/^Erreur de syntaxe/, 'syntax'],
  [/^Fichier trop complexe/, 'too_complex'],
  [/^Mémoire dépassée/, 'memory'],
  [/^Temps de calcul dépassé/, 'cpu_limit'],
  [/^Délai dépassé/, 'wall_timeout'],
  [/^Sortie trop volumineuse/, 'output_too_large'],
  [/^Opération interdite pendant l'exécution/, 'refused_operation'],
  [/^Erreur à l'exécution/, 'runtime_error'],
  [/^La stratégie regarde dans le futur/, 'lookahead'],
  [/^(La fonction doit renvoyer|Signal n°|Trop de signaux)/, 'bad_output'],
  [/^Le script a été arrêté/, 'killed'],
];

function outcomeOf(res: { status: number; body: { detail?: string } }, success: number): { outcome: string; detail: string } {
  const detail = res.body?.detail ?? '';
  if (res.status === success) return { outcome: 'contained', detail };
  if (res.status !== 400) return { outcome: `HTTP ${res.status}`, detail };
  return { outcome: DETAIL_CODES.find(([pattern]) => pattern.test(detail))?.[1] ?? 'unknown', detail };
}

function mismatch(file: HostileFile, route: string, expected: Expectation, got: { outcome: string; detail: string }): string | null {
  if (!expected.outcomes.includes(got.outcome)) return `${file.name} (${route}): expected ${expected.outcomes.join('|')}, got ${got.outcome}: ${got.detail}`;
  if (expected.detail && !got.detail.includes(expected.detail)) return `${file.name} (${route}): the detail should show ${expected.detail}: ${got.detail}`;
  return null;
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: size }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await work(item);
  }));
}

let tdb: TestDatabase;
let t: TestApp;
let uid: number;
let setup: SandboxSetup;

before(async () => {
  ({ uid, setup } = await privateSandbox());
  tdb = await openTestDatabase();
  // Short limits, as in every sandbox test; the concurrency the corpus runs at. The wall clock is
  // the one limit left long: no file of the corpus needs it (an endless loop meets the CPU limit
  // first), and at 5 s the 32 MB output flood, four runs at once on a loaded 2-core CI machine,
  // once met it before the output cap that this file checks (docs/development.md, "Test files
  // sharing a process"). test/sandbox-limits.test.ts checks the wall clock itself.
  t = await startTestApp(tdb.db, {
    library: true,
    sandboxSetup: setup,
    sandboxConcurrency: CONCURRENCY,
    sandboxLimits: { cpuSeconds: 1, wallMs: 15_000, memoryBytes: 384 * 1024 * 1024 },
  });
});
after(async () => {
  await t?.close();
  await tdb?.drop();
});

describe(`the hostile corpus through the routes (${TEST_DIALECT})`, () => {
  it('refuses or contains every file, keeps serving another user, charges nothing, leaves no process', async () => {
    const whole = readCorpus();
    assert.ok(whole.length >= 40, `${whole.length} files`);
    // In the MariaDB pass, one file per expected outcome of the import and of the backtest
    // (support/db.ts, casesForThisPass): 21 kinds.
    const corpus = casesForThisPass(whole, (file) => `${file.import.outcomes.join('|')} / ${file.backtest?.outcomes.join('|') ?? ''}`);
    const attacker = await funded(t, 20);
    const neighbour = await funded(t, 0);
    const problems: string[] = [];
    const latencies: number[] = [];
    let done = false;
    const started = performance.now();
    // The server runs in this process (support/app.ts): its event loop's delay is what the
    // sandbox's child processes must leave alone.
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    // The collector's pauses over the same window, to tell them from a held loop in a failure.
    let longestGc = 0;
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longestGc = Math.max(longestGc, entry.duration);
    });
    gc.observe({ entryTypes: ['gc'] });
    const heapAtStart = process.memoryUsage().heapUsed;
    const idle = await startIdleLoop();

    // Another user keeps using the server while the corpus runs.
    const watch = (async () => {
      while (!done) {
        for (const [path, key] of [['/api/health', undefined], ['/api/me', neighbour.key], ['/api/user/strategies', neighbour.key]] as const) {
          const asked = performance.now();
          const res = await t.request('GET', path, { key });
          latencies.push(performance.now() - asked);
          if (res.status !== 200) problems.push(`GET ${path} during the corpus: ${res.status} ${res.text}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const neighbourImport = importStrategy(t, neighbour.key, BREAKOUT_PY, 'voisin.py');

    let backtests = 0;
    await pool(corpus, CONCURRENCY, async (file) => {
      const imported = await importStrategy(t, attacker.key, file.source, file.name);
      const problem = mismatch(file, 'import', file.import, outcomeOf(imported, 201));
      if (problem) problems.push(problem);
      if (!file.backtest || imported.status !== 201) return;
      backtests++;
      const run = await runBacktest(t, attacker.key, { strategy: imported.body.strategy_id });
      const got = outcomeOf(run, 200);
      if (got.outcome !== 'contained') assert.match(got.detail, / Aucun crédit n’a été débité\.$/, `${file.name}: ${got.detail}`);
      const backtestProblem = mismatch(file, 'backtest', file.backtest, got);
      if (backtestProblem) problems.push(backtestProblem);
    });
    done = true;
    await watch;
    loopDelay.disable();
    gc.disconnect();
    const idleStall = await idle.stop();
    const seconds = (performance.now() - started) / 1000;

    assert.equal((await neighbourImport).status, 201, 'the other user imported a strategy meanwhile');
    assert.deepEqual(problems, []);
    assert.ok(backtests >= 5, `${backtests} backtests of personal strategies`);
    assert.equal(await balance(t, attacker.id), 20, 'every failed backtest was refunded');
    const slowest = Math.max(...latencies);
    const longestStall = loopDelay.max / 1e6;
    // The sandbox runs in child processes: the event loop keeps answering. Measured on the loop
    // itself, not on the other user's answers, which also wait on the database: a MariaDB that the
    // other test files of a loaded CI machine keep busy is no measure of the sandbox. The answers
    // must still all be 200s (problems above). Generous for a loaded machine still, and judged
    // beside an idle process's longest stall over the same window (the MariaDB pass failed once
    // on a 3.4 s stall, at a load average of 8: what the scheduler withholds from every process
    // is not the sandbox's doing).
    const context = `an idle process's longest stall ${idleStall.toFixed(0)} ms, longest collector pause ${longestGc.toFixed(0)} ms, heap ${Math.round(heapAtStart / 2 ** 20)} MB at the start, load average ${loadavg()[0].toFixed(1)}`;
    assert.ok(longestStall < 3000 + idleStall, `the event loop stalled ${longestStall.toFixed(0)} ms during the corpus (${context})`);
    assert.ok(!existsSync(PWNED), `${PWNED} was written`);
    assert.deepEqual(await survivorsOf(uid), [], 'no sandbox process is left');
    const summary = `hostile corpus: ${corpus.length} files, ${backtests} backtests in ${seconds.toFixed(1)} s; ${latencies.length} calls of another user, slowest ${slowest.toFixed(0)} ms, longest event-loop stall ${longestStall.toFixed(0)} ms; ${context}`;
    t.logs.push(summary);
    console.log(`# ${summary}`);
  });
});
