import { constants as osConstants } from 'node:os';
import process from 'node:process';
import { candlesFromColumns, type Candles } from '@bt/core/candles';
import { inProcessCodec, type ExpectedSignals, type SandboxCodec } from './codec.js';
import { prepareSandbox, type SandboxCommand, type SandboxLauncher, type SandboxSetup } from './isolation.js';
import { signalCount, type SignalColumns } from './signal-columns.js';
import { sandboxSpawner, type SandboxChild } from './spawner.js';

export interface SandboxLimits {
  /** RLIMIT_CPU of the Python process (soft; hard one second more). */
  cpuSeconds: number;
  /** RLIMIT_AS: the whole address space. */
  memoryBytes: number;
  /** Wall-clock limit; the sandbox (its process group and pid namespace) is killed past it. */
  wallMs: number;
  /** The answer (stdout) or the prints (stderr) past this: the sandbox is killed. */
  maxOutputBytes: number;
  maxSignals: number;
  /** What print() writes that is kept for the logs (the rest is counted and dropped). */
  logBytes: number;
  /**
   * RLIMIT_NPROC of the strategy: processes its user may have (counted outside the sandbox, for
   * the unprivileged user it runs as). 0: it cannot fork at all; tests raise it to show the pid
   * namespace kills what a strategy started.
   */
  processes: number;
  /** AST nodes a file may have. */
  maxNodes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuSeconds: 10,
  memoryBytes: 768 * 1024 * 1024,
  wallMs: 20_000,
  maxOutputBytes: 32 * 1024 * 1024,
  maxSignals: 200_000,
  logBytes: 64 * 1024,
  maxNodes: 50_000,
  processes: 0,
};

/** What the static reading of a file found (docs/strategies-python.md). */
export interface StrategyInfo {
  function: string;
  detect_id: string;
  line: number;
  meta: { PARAMS?: unknown; ENTRY_MODE?: unknown; FILTERS?: unknown; DESCRIPTION?: unknown; NAME?: unknown };
}

const CODES = [
  'syntax', 'too_complex', 'forbidden_import', 'forbidden_name', 'forbidden_attribute', 'forbidden_string', 'forbidden_pattern',
  'no_detect', 'several_detect', 'bad_signature', 'bad_detect_name', 'bad_meta',
  'runtime_error', 'refused_operation', 'memory', 'bad_output', 'lookahead',
  'cpu_limit', 'wall_timeout', 'output_too_large', 'killed', 'protocol', 'unavailable', 'busy', 'owner_busy',
] as const;
export type SandboxErrorCode = (typeof CODES)[number];
const SANDBOX_ERROR_CODES: ReadonlySet<string> = new Set(CODES);

/** A refusal of the sandbox, with what the user needs to fix it (French text from strategies/messages.ts). */
export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    readonly detail: string,
    readonly line: number | null = null,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(`${code}: ${detail}${line ? ` (line ${line})` : ''}`);
    this.name = 'SandboxError';
  }
}

export type SandboxMode = 'check' | 'dry_run' | 'run';

export interface SandboxRequest {
  source: string;
  mode: SandboxMode;
  candles?: Candles;
  /** Scalars given beside the columns (symbol, timeframe, pip_size). */
  meta?: Record<string, string | number>;
  params?: Record<string, unknown>;
  /** dry_run: also run on the first `cut` candles for each cut and compare (the look-ahead check). */
  lookaheadCuts?: number[];
  /** ENTRY_MODE = "pullback": every signal must carry a zone (docs/strategies-python.md). */
  zoneRequired?: boolean;
  /**
   * Tests only, to show each layer holds alone (docs/security.md): 'runtime' skips the static
   * check; 'none' skips every Python-level check (reduced builtins, rewritten imports, audit hook),
   * leaving the OS layer (bubblewrap, rlimits). Never set by a route.
   */
  pythonChecks?: 'all' | 'runtime' | 'none';
  /**
   * Whose run it is (the user's id): one owner may have at most as many runs in flight, running or
   * waiting, as run at once, so one account cannot fill the queue and leave every other one a 503.
   */
  owner?: number;
  limits?: Partial<SandboxLimits>;
}

export interface SandboxResult {
  info: StrategyInfo;
  /** Checked, as columns (src/strategies/sandbox/signal-columns.ts). */
  signals: SignalColumns;
  /** What the strategy printed (the first `logBytes`). */
  logs: string;
  /** Time inside Python (check and calls). */
  elapsedMs: number;
  /** Wall time including the process start. */
  wallMs: number;
}

/** Runs strategies in an isolated `python3 -I -S -B`; `available` is false (and every call refused) without isolation. */
export interface StrategySandbox {
  readonly available: boolean;
  readonly limits: SandboxLimits;
  /** The refusal every call gets when the sandbox is not available (null when it is). */
  readonly unavailable: SandboxError | null;
  run(request: SandboxRequest): Promise<SandboxResult>;
  /** Where the calls' JSON is written and read from now on (the API: its engine threads). */
  useCodec?(codec: SandboxCodec): void;
}

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}
  async use<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
  get queued(): number {
    return this.waiting.length;
  }
}

export class PythonSandbox implements StrategySandbox {
  readonly limits: SandboxLimits;
  readonly unavailable: SandboxError | null;
  private readonly gate: Semaphore;
  private readonly maxQueue: number;
  private readonly launcher: SandboxLauncher | null;
  private readonly perOwner: number;
  private readonly inFlight = new Map<number, number>();
  private codec: SandboxCodec;

  constructor(setup: SandboxSetup, options: { limits?: Partial<SandboxLimits>; concurrency?: number; maxQueue?: number; codec?: SandboxCodec } = {}) {
    this.codec = options.codec ?? inProcessCodec;
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.gate = new Semaphore(options.concurrency ?? 2);
    this.perOwner = options.concurrency ?? 2;
    this.maxQueue = options.maxQueue ?? 32;
    this.launcher = setup.ready ? setup.launcher : null;
    this.unavailable = setup.ready ? null : new SandboxError('unavailable', setup.missing);
  }

  get available(): boolean {
    return this.launcher !== null;
  }

  useCodec(codec: SandboxCodec): void {
    this.codec = codec;
  }

  async run(request: SandboxRequest): Promise<SandboxResult> {
    if (!this.launcher) throw this.unavailable!;
    if (this.gate.queued >= this.maxQueue) throw new SandboxError('busy', String(this.maxQueue));
    const owner = request.owner;
    if (owner !== undefined && (this.inFlight.get(owner) ?? 0) >= this.perOwner) throw new SandboxError('owner_busy', String(this.perOwner));
    const limits = { ...this.limits, ...request.limits };
    const header = {
      source: request.source,
      mode: request.mode,
      checks: request.pythonChecks ?? 'all',
      limits: {
        cpu_seconds: Math.max(1, Math.ceil(limits.cpuSeconds)),
        memory_bytes: limits.memoryBytes,
        processes: limits.processes,
        max_signals: limits.maxSignals,
        max_nodes: limits.maxNodes,
      },
      params: request.params ?? {},
      lookahead_cuts: request.lookaheadCuts,
      zone_required: request.zoneRequired === true,
    };
    const expected = { candleCount: request.candles?.close.length ?? 0, zoneRequired: request.zoneRequired === true, maxSignals: limits.maxSignals };
    const command = this.launcher.command();
    // Written once a place in the gate is ours: a waiting call holds no copy of its request.
    const call = async () => this.spawnRunner(command, await this.codec.input({ header, columns: request.candles, meta: request.meta }), limits, expected);
    if (owner === undefined) return this.gate.use(call);
    this.inFlight.set(owner, (this.inFlight.get(owner) ?? 0) + 1);
    try {
      return await this.gate.use(call);
    } finally {
      const left = (this.inFlight.get(owner) ?? 1) - 1;
      if (left > 0) this.inFlight.set(owner, left);
      else this.inFlight.delete(owner);
    }
  }

  private async spawnRunner(command: SandboxCommand, input: Uint8Array, limits: SandboxLimits, expected: ExpectedSignals): Promise<SandboxResult> {
    const started = performance.now();
    // Started by the spawner (spawner.ts): an empty environment, its own process group, killed
    // whole past the wall-clock limit (inside bubblewrap, the sandbox's pid namespace dies with it:
    // --die-with-parent).
    let child: SandboxChild;
    try {
      child = await sandboxSpawner().spawn(command);
    } catch {
      // bubblewrap or Python gone since the start-up check: refused like a missing sandbox (503).
      throw new SandboxError('unavailable', 'isolation');
    }
    const outcome = await new Promise<ChildOutcome>((resolve, reject) => {
      const stdout = new CappedStream(limits.maxOutputBytes);
      const stderr = new CappedStream(limits.logBytes);
      let reason: 'wall' | 'output' | null = null;
      const kill = (why: 'wall' | 'output') => {
        if (reason) return;
        reason = why;
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          try {
            process.kill(child.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      };
      const timer = setTimeout(() => kill('wall'), limits.wallMs);
      child.stdout.on('data', (chunk: Buffer) => {
        if (!stdout.push(chunk)) kill('output');
      });
      // print() goes here: the first logBytes are kept, a flood past maxOutputBytes is stopped.
      child.stderr.on('data', (chunk: Buffer) => {
        stderr.push(chunk);
        if (stderr.total > limits.maxOutputBytes) kill('output');
      });
      // The spawner died before it said how the child ended (the child was killed with it), or,
      // started here under Deno, bubblewrap or Python is gone since the start-up check.
      child.on('error', () => {
        clearTimeout(timer);
        reject(new SandboxError('unavailable', 'isolation'));
      });
      let settled = false;
      const settle = (code: number | null, signal: NodeJS.Signals | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ stdout: stdout.bytes(), stderr: stderr.bytes(), code, signal: signal ?? signalOfExitCode(code), reason });
      };
      child.on('close', (code: number | null, signal: NodeJS.Signals | null) => settle(code, signal));
      // A process that escaped the kill could hold the pipes open for ever: once the child has
      // exited, its answer gets a short grace, then the pipes are closed on our side. The grace
      // ends only after a poll of the pipes (setImmediate) that brought nothing new: an event loop
      // kept busy past it (a loaded server) runs due timers before it reads, and cut answers
      // already waiting in the pipe (docs/security.md, "The strategy sandbox").
      child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
        let seen = stdout.total + stderr.total;
        let graces = 0;
        const grace = () =>
          setTimeout(() => {
            setImmediate(() => {
              if (settled) return;
              // Still arriving: another grace, a bounded number of times (a trickle from a
              // process that escaped must not hold the run).
              const received = stdout.total + stderr.total;
              if (received !== seen && ++graces < MAX_EXIT_GRACES) {
                seen = received;
                grace();
                return;
              }
              child.stdout.destroy();
              child.stderr.destroy();
              settle(code, signal);
            });
          }, EXIT_GRACE_MS).unref();
        grace();
      });
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    });
    const wallMs = performance.now() - started;
    if (outcome.reason === 'wall') throw new SandboxError('wall_timeout', String(Math.round(limits.wallMs / 1000)));
    if (outcome.reason === 'output') throw new SandboxError('output_too_large', String(limits.maxOutputBytes));
    if (outcome.signal === 'SIGXCPU' || outcome.signal === 'SIGKILL') throw new SandboxError('cpu_limit', String(limits.cpuSeconds));
    if (outcome.signal) throw new SandboxError('killed', outcome.signal);
    const logs = outcome.stderr.toString('utf8');
    const answer = await this.codec.answer(outcome.stdout, expected);
    if (answer.kind === 'unreadable') {
      // Python died before answering (a MemoryError while starting, an interpreter abort), or
      // bubblewrap could not start it (its reason is on stderr).
      // bubblewrap's own failure (a runner or library gone since the start-up check, no user
      // namespace left): the server's fault, refused like a missing sandbox (503), never blamed on
      // the user's file (a 400 archived as its failure); its reason is kept in `extra` for the
      // start-up self-test, which reports it.
      if (outcome.code !== 0 && /^bwrap: /m.test(logs)) throw new SandboxError('unavailable', 'isolation', null, { reason: logs.trim().split('\n').at(-1)!.slice(0, 300) });
      if (outcome.code !== 0) throw new SandboxError('memory', `exit ${outcome.code}`);
      throw new SandboxError('protocol', 'no JSON answer');
    }
    if (answer.kind === 'refused') {
      const { code, detail, line, extra } = answer.refusal;
      throw new SandboxError(SANDBOX_ERROR_CODES.has(code) ? (code as SandboxErrorCode) : 'protocol', detail, line, extra);
    }
    return { info: answer.info as StrategyInfo, signals: answer.signals, logs, elapsedMs: answer.elapsedMs, wallMs };
  }
}

interface ChildOutcome {
  stdout: Buffer;
  stderr: Buffer;
  code: number | null;
  signal: string | null;
  reason: 'wall' | 'output' | null;
}

/** How long a child that has exited may keep its pipes open, and how many times while its output still comes. */
const EXIT_GRACE_MS = 1000;
const MAX_EXIT_GRACES = 10;

/** Keeps the first `keep` bytes of a stream and counts the rest. */
class CappedStream {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  constructor(private readonly keep: number) {}
  /** false once more than `keep` bytes came. */
  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    const room = this.keep - this.kept;
    if (room > 0) {
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(part);
      this.kept += part.length;
    }
    return this.total <= this.keep;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** bubblewrap exits with 128 + N when the sandboxed process was killed by signal N. */
function signalOfExitCode(code: number | null): string | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const number = code - 128;
  return Object.entries(osConstants.signals).find(([, n]) => n === number)?.[0] ?? null;
}

const SELF_TEST_SOURCE = 'import math\n\ndef detect_self_test(candles, params):\n    return [(0, "buy", math.floor(candles["low"][0]))]\n';

/** One trivial strategy through the launcher: null when the sandbox answers as it should, else why not. */
export async function sandboxSelfTest(launcher: SandboxLauncher): Promise<string | null> {
  const sandbox = new PythonSandbox({ ready: true, launcher });
  const n = 3;
  const column = () => Float64Array.from({ length: n }, (_, i) => 1 + i / 100);
  const candles = candlesFromColumns({ time: Float64Array.from({ length: n }, (_, i) => i * 60_000), open: column(), high: column(), low: column(), close: column(), volume: column() });
  try {
    const result = await sandbox.run({ source: SELF_TEST_SOURCE, mode: 'dry_run', candles, lookaheadCuts: [2], limits: { wallMs: 20_000 } });
    return signalCount(result.signals) === 1 && result.signals.stop[0] === 1 ? null : `unexpected answer: ${signalCount(result.signals)} signal(s), stop ${result.signals.stop[0]}`;
  } catch (err) {
    return err instanceof SandboxError ? `${err.code}: ${typeof err.extra.reason === 'string' ? err.extra.reason : err.detail}` : (err as Error).message;
  }
}

/**
 * The server's sandbox: bubblewrap checked by a self-test, or every call refused with the reason
 * (docs/security.md, "When isolation is missing"): strategies never run unisolated.
 */
export async function openSandbox(options: {
  python: string;
  bwrap?: string;
  uid?: number;
  gid?: number;
  limits?: Partial<SandboxLimits>;
  concurrency?: number;
}): Promise<{ sandbox: PythonSandbox; setup: SandboxSetup }> {
  const setup = await prepareSandbox({ ...options, selfTest: sandboxSelfTest });
  return { sandbox: new PythonSandbox(setup, { limits: options.limits, concurrency: options.concurrency }), setup };
}
