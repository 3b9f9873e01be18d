import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Candles } from '@bt/core/candles';
import type { StrategySignal } from '@bt/core/strategies';
import { RUNNER_SOURCE } from './runner-source.js';

export interface SandboxLimits {
  /** RLIMIT_CPU of the Python process (soft; hard one second more). */
  cpuSeconds: number;
  /** RLIMIT_AS: the whole address space. */
  memoryBytes: number;
  /** Wall-clock limit; the process group is killed past it. */
  wallMs: number;
  /** stdout past this is refused and the process killed. */
  maxOutputBytes: number;
  maxSignals: number;
  /** What print() may write (kept for the logs, the rest dropped). */
  logBytes: number;
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
};

/** What the static reading of a file found (docs/strategies-python.md). */
export interface StrategyInfo {
  function: string;
  detect_id: string;
  line: number;
  meta: { PARAMS?: unknown; ENTRY_MODE?: unknown; FILTERS?: unknown; DESCRIPTION?: unknown; NAME?: unknown };
}

export type SandboxErrorCode =
  | 'syntax' | 'too_complex' | 'forbidden_import' | 'forbidden_name' | 'forbidden_attribute' | 'forbidden_string'
  | 'no_detect' | 'several_detect' | 'bad_signature' | 'bad_detect_name' | 'bad_meta'
  | 'runtime_error' | 'refused_operation' | 'memory' | 'bad_output' | 'lookahead'
  | 'cpu_limit' | 'wall_timeout' | 'output_too_large' | 'killed' | 'protocol' | 'unavailable' | 'busy';

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
  /** Tests only: run without the static check, to exercise the runtime layers. */
  staticCheck?: boolean;
  limits?: Partial<SandboxLimits>;
}

export interface SandboxResult {
  info: StrategyInfo;
  signals: StrategySignal[];
  logs: string;
  /** Time inside Python (check and calls). */
  elapsedMs: number;
  /** Wall time including the process start. */
  wallMs: number;
}

/** Runs strategies in `python3 -I -S`; `available` is false (and every call refused) without Python. */
export interface StrategySandbox {
  readonly available: boolean;
  readonly limits: SandboxLimits;
  run(request: SandboxRequest): Promise<SandboxResult>;
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

/**
 * The real interpreter's path (a pyenv shim or /usr/bin/python3 resolved to the binary), found
 * once with the server's environment, since the sandboxed process gets an empty one. null when
 * Python 3 cannot be run.
 */
export function resolvePython(command = 'python3'): string | null {
  try {
    const path = execFileSync(command, ['-c', 'import sys; assert sys.version_info >= (3, 8); print(sys.executable)'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return path || null;
  } catch {
    return null;
  }
}

function columnsOf(candles: Candles, meta: Record<string, string | number>): Record<string, unknown> {
  const data: Record<string, unknown> = {
    time: Array.from(candles.time),
    open: Array.from(candles.open),
    high: Array.from(candles.high),
    low: Array.from(candles.low),
    close: Array.from(candles.close),
    volume: Array.from(candles.volume),
  };
  for (const [name, values] of Object.entries(candles.extra)) {
    if (/^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) && !(name in data)) data[name] = Array.from(values, (v) => (Number.isFinite(v) ? v : null));
  }
  return { ...data, ...meta };
}

export class PythonSandbox implements StrategySandbox {
  readonly limits: SandboxLimits;
  private readonly gate: Semaphore;

  constructor(
    private readonly python: string | null,
    options: { limits?: Partial<SandboxLimits>; concurrency?: number; maxQueue?: number } = {},
  ) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.gate = new Semaphore(options.concurrency ?? 2);
    this.maxQueue = options.maxQueue ?? 32;
  }

  private readonly maxQueue: number;

  get available(): boolean {
    return this.python !== null;
  }

  async run(request: SandboxRequest): Promise<SandboxResult> {
    if (!this.python) throw new SandboxError('unavailable', 'python3');
    if (this.gate.queued >= this.maxQueue) throw new SandboxError('busy', String(this.maxQueue));
    const limits = { ...this.limits, ...request.limits };
    const input = JSON.stringify({
      source: request.source,
      mode: request.mode,
      static_check: request.staticCheck ?? true,
      limits: {
        cpu_seconds: Math.max(1, Math.ceil(limits.cpuSeconds)),
        memory_bytes: limits.memoryBytes,
        max_signals: limits.maxSignals,
        log_bytes: limits.logBytes,
        max_nodes: limits.maxNodes,
      },
      candles: request.candles ? columnsOf(request.candles, request.meta ?? {}) : undefined,
      params: request.params ?? {},
      lookahead_cuts: request.lookaheadCuts,
    });
    return this.gate.use(() => this.spawnRunner(this.python!, input, limits));
  }

  private async spawnRunner(python: string, input: string, limits: SandboxLimits): Promise<SandboxResult> {
    const cwd = await mkdtemp(join(tmpdir(), 'bt-sandbox-'));
    const started = performance.now();
    try {
      const outcome = await new Promise<{ stdout: Buffer; code: number | null; signal: string | null; reason: 'wall' | 'output' | null }>((resolve, reject) => {
        // -I: isolated (no PYTHON* variables, no user site, no script directory on sys.path);
        // -S: no site module; -B: no .pyc written. Empty environment, empty working directory,
        // its own process group so a timeout kills everything it could have started.
        const child = spawn(python, ['-I', '-S', '-B', '-c', RUNNER_SOURCE], { cwd, env: {}, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        const chunks: Buffer[] = [];
        let size = 0;
        let reason: 'wall' | 'output' | null = null;
        const kill = (why: 'wall' | 'output') => {
          if (reason) return;
          reason = why;
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        };
        const timer = setTimeout(() => kill('wall'), limits.wallMs);
        child.stdout.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxOutputBytes) kill('output');
          else chunks.push(chunk);
        });
        child.stderr.on('data', () => {});
        child.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          resolve({ stdout: Buffer.concat(chunks), code, signal, reason });
        });
        child.stdin.on('error', () => {});
        child.stdin.end(input);
      });
      const wallMs = performance.now() - started;
      if (outcome.reason === 'wall') throw new SandboxError('wall_timeout', String(Math.round(limits.wallMs / 1000)));
      if (outcome.reason === 'output') throw new SandboxError('output_too_large', String(limits.maxOutputBytes));
      if (outcome.signal === 'SIGXCPU' || outcome.signal === 'SIGKILL') throw new SandboxError('cpu_limit', String(limits.cpuSeconds));
      if (outcome.signal) throw new SandboxError('killed', outcome.signal);
      let response: { ok: boolean; info?: StrategyInfo; signals?: StrategySignal[]; logs?: string; elapsed_ms?: number; error?: { code: SandboxErrorCode; message: string; line: number | null } & Record<string, unknown> };
      try {
        response = JSON.parse(outcome.stdout.toString('utf8'));
      } catch {
        // Python died before answering (a MemoryError while starting, an interpreter abort).
        if (outcome.code !== 0) throw new SandboxError('memory', `exit ${outcome.code}`);
        throw new SandboxError('protocol', 'no JSON answer');
      }
      if (!response.ok) {
        const { code, message, line, ...extra } = response.error ?? { code: 'protocol' as const, message: '', line: null };
        throw new SandboxError(code, message ?? '', line ?? null, extra);
      }
      return { info: response.info!, signals: response.signals ?? [], logs: response.logs ?? '', elapsedMs: response.elapsed_ms ?? 0, wallMs };
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }
}
