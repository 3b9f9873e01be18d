import type { CandleColumnsCopy } from '../../jobs/task.js';
import { emptySignalColumns, type SignalColumns } from './signal-columns.js';

/** The columns the runner gets (core's Candles, or their copies on a thread). */
type CandleColumns = Pick<CandleColumnsCopy, 'time' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'extra'>;

/**
 * The two CPU-heavy ends of a sandbox call: the request written as JSON (a year of M1 candles is
 * 18 MB of numbers turned into text and more: 0.3 s of CPU) and the answer read back (up to 32 MB of
 * JSON, then up to 200,000 signals checked). Pure functions, so that the API runs them on its
 * engine threads (src/jobs/thread.ts) and a test or a small request in-process, with the same
 * bytes and the same verdicts (docs/security.md, "The strategy sandbox").
 */

/** Everything the runner reads but the candles' columns. */
export interface SandboxInputHeader {
  source: string;
  mode: string;
  checks: string;
  limits: Record<string, number>;
  params: Record<string, unknown>;
  lookahead_cuts?: number[];
  zone_required: boolean;
}

export interface SandboxInput {
  header: SandboxInputHeader;
  /** Absent for a static check. The caller's candles: a thread gets copies of its own. */
  columns?: CandleColumns;
  /** Scalars given beside the columns (symbol, timeframe, pip_size). */
  meta?: Record<string, string | number>;
}

/**
 * What the runner gets on stdin: the header's fields, the candles as arrays of numbers beside
 * `meta`. UTF-8 bytes in a buffer of their own (never a slice of Node's shared pool), so that a
 * thread can move them.
 */
export function encodeSandboxInput({ header, columns, meta }: SandboxInput): Uint8Array {
  const { source, mode, checks, limits, params, lookahead_cuts, zone_required } = header;
  const candles = columns ? candleObject(columns, meta ?? {}) : undefined;
  return new TextEncoder().encode(JSON.stringify({ source, mode, checks, limits, candles, params, lookahead_cuts, zone_required }));
}

function candleObject(columns: CandleColumns, meta: Record<string, string | number>): Record<string, unknown> {
  const data: Record<string, unknown> = {
    time: Array.from(columns.time),
    open: Array.from(columns.open),
    high: Array.from(columns.high),
    low: Array.from(columns.low),
    close: Array.from(columns.close),
    volume: Array.from(columns.volume),
  };
  for (const [name, values] of Object.entries(columns.extra)) {
    if (/^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) && !(name in data)) data[name] = Array.from(values, (v) => (Number.isFinite(v) ? v : null));
  }
  return { ...data, ...meta };
}

/** What the server checks the answer's signals against. */
export interface ExpectedSignals {
  candleCount: number;
  zoneRequired: boolean;
  maxSignals: number;
}

/** A refusal as data (an error's class does not cross a thread): rebuilt as a SandboxError by the caller. */
export interface SandboxRefusal {
  code: string;
  detail: string;
  line: number | null;
  extra: Record<string, unknown>;
}

export type DecodedAnswer =
  /** Not JSON at all: why depends on the exit code and stderr, which the caller has. */
  | { kind: 'unreadable' }
  | { kind: 'refused'; refusal: SandboxRefusal }
  | { kind: 'ok'; info: unknown; signals: SignalColumns; elapsedMs: number };

const protocol = (detail: string): DecodedAnswer => ({ kind: 'refused', refusal: { code: 'protocol', detail, line: null, extra: {} } });

/**
 * The runner's answer, read. The runner checks its answer, but the answer comes through a pipe
 * the strategy could write to if every Python-level check failed: read again here, and copied
 * field by field (docs/security.md, "What each layer stops": forge the answer). Signals: nothing
 * but the contract's fields, as plain numbers, at most `maxSignals`. A refusal: its code, a message
 * of at most MESSAGE_CHARS characters and the runner's own details as plain values. The file's
 * description (`info`): its names as short texts, its constants at most CONSTANT_DEPTH levels deep.
 * What is left can neither be too deep to copy across a thread (the engine threads' copy of an
 * object is recursive: a forged answer nested 200,000 levels deep overflowed its stack)
 * nor fill an answer's message with megabytes.
 */
export function decodeSandboxAnswer(stdout: Uint8Array, expected: ExpectedSignals): DecodedAnswer {
  let response: unknown;
  try {
    response = JSON.parse(Buffer.from(stdout.buffer, stdout.byteOffset, stdout.byteLength).toString('utf8'));
  } catch {
    return { kind: 'unreadable' };
  }
  if (!response || typeof response !== 'object') return protocol('not an object');
  const answer = response as { ok?: unknown; info?: unknown; signals?: unknown; elapsed_ms?: unknown; error?: unknown };
  if (!answer.ok) return { kind: 'refused', refusal: refusalOf(answer.error) };
  const info = infoOf(answer.info);
  if (!info) return protocol('info');
  const signals = checkedSignals(answer.signals, expected);
  if ('kind' in signals) return signals;
  const elapsed = Number(answer.elapsed_ms);
  return { kind: 'ok', info, signals, elapsedMs: Number.isFinite(elapsed) && elapsed > 0 ? elapsed : 0 };
}

/** Longest message of a refusal kept (the runner's own are at most 300 characters). */
const MESSAGE_CHARS = 1000;
/** Details of a refusal the runner writes (refusal.py's callers) and the server reads (messages.ts). */
const REFUSAL_DETAILS = ['column', 'index', 'cut', 'detail', 'position', 'n'] as const;
/** Levels of lists and dictionaries kept in a file's constants (PARAMS is one: a dictionary of values). */
const CONSTANT_DEPTH = 3;
/** Longest text kept anywhere in `info` (NAME keeps 120 characters, DESCRIPTION 2,000). */
const TEXT_CHARS = 10_000;

const isInteger = (v: unknown): v is number => Number.isInteger(v);

/** A number, a boolean, null, or a text cut at `chars`; anything else null. */
function scalarOf(value: unknown, chars: number): string | number | boolean | null {
  if (typeof value === 'string') return value.slice(0, chars);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return typeof value === 'boolean' ? value : null;
}

function refusalOf(error: unknown): SandboxRefusal {
  if (!error || typeof error !== 'object' || Array.isArray(error)) return { code: 'protocol', detail: '', line: null, extra: {} };
  const raw = error as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const key of REFUSAL_DETAILS) if (Object.hasOwn(raw, key)) extra[key] = scalarOf(raw[key], MESSAGE_CHARS);
  const message = raw.message;
  return {
    code: typeof raw.code === 'string' ? raw.code.slice(0, 40) : 'protocol',
    detail: typeof message === 'string' ? message.slice(0, MESSAGE_CHARS) : typeof message === 'number' ? String(message) : '',
    line: isInteger(raw.line) && raw.line >= 0 ? raw.line : null,
    extra,
  };
}

/** A constant of the file as plain data, at most `depth` levels of lists and dictionaries (deeper: null). */
function constantOf(value: unknown, depth: number): unknown {
  if (!value || typeof value !== 'object') return scalarOf(value, TEXT_CHARS);
  if (depth === 0) return null;
  if (Array.isArray(value)) return value.map((item) => constantOf(item, depth - 1));
  // fromEntries defines each key as an own property, `__proto__` included.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.slice(0, TEXT_CHARS), constantOf(item, depth - 1)]));
}

/** The file's description as the runner writes it (static_check.module_info), or null. */
function infoOf(raw: unknown): { function: string; detect_id: string; line: number | null; meta: Record<string, unknown> } | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { function: name, detect_id, line, meta } = raw as Record<string, unknown>;
  if (typeof name !== 'string' || typeof detect_id !== 'string' || name.length > 200 || detect_id.length > 200) return null;
  const constants: Record<string, unknown> = {};
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const key of ['PARAMS', 'ENTRY_MODE', 'FILTERS', 'DESCRIPTION', 'NAME']) {
      if (Object.hasOwn(meta, key)) constants[key] = constantOf((meta as Record<string, unknown>)[key], CONSTANT_DEPTH);
    }
  }
  return { function: name, detect_id, line: isInteger(line) ? line : null, meta: constants };
}

function checkedSignals(raw: unknown, { candleCount, zoneRequired, maxSignals }: ExpectedSignals): SignalColumns | DecodedAnswer {
  if (raw === undefined) return emptySignalColumns();
  if (!Array.isArray(raw)) return protocol('signals');
  if (raw.length > maxSignals) return { kind: 'refused', refusal: { code: 'bad_output', detail: 'too_many', line: null, extra: { detail: String(maxSignals) } } };
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const columns = emptySignalColumns(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const s: unknown = raw[i];
    if (!s || typeof s !== 'object') return protocol('signals');
    const { index, side, stop, zone } = s as Record<string, unknown>;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= candleCount) return protocol('signals');
    if (side !== 'buy' && side !== 'sell') return protocol('signals');
    if (stop !== undefined && !finite(stop)) return protocol('signals');
    columns.index[i] = index as number;
    columns.side[i] = side === 'buy' ? 1 : -1;
    columns.stop[i] = stop === undefined ? NaN : stop;
    if (zone === undefined) {
      if (zoneRequired) return protocol('signals');
      columns.top[i] = NaN;
      columns.bottom[i] = NaN;
      continue;
    }
    const { top, bottom } = (zone && typeof zone === 'object' ? zone : {}) as Record<string, unknown>;
    if (!finite(top) || !finite(bottom) || !(top > bottom)) return protocol('signals');
    columns.top[i] = top;
    columns.bottom[i] = bottom;
  }
  return columns;
}

/** Where a sandbox call's two ends run: in-process, or on the engine's threads. */
export interface SandboxCodec {
  input(input: SandboxInput): Promise<Uint8Array>;
  answer(stdout: Uint8Array, expected: ExpectedSignals): Promise<DecodedAnswer>;
}

export const inProcessCodec: SandboxCodec = {
  input: async (input) => encodeSandboxInput(input),
  answer: async (stdout, expected) => decodeSandboxAnswer(stdout, expected),
};

/**
 * Below these sizes a call's two ends stay in-process: an import's check and dry run (600
 * candles, a few KB of answer) cost about a millisecond there, less than a thread's round trip.
 */
export const THREAD_MIN_CANDLES = 5_000;
export const THREAD_MIN_ANSWER_BYTES = 256 * 1024;

/** The engine threads' codec for large calls, in-process for small ones. */
export function threadedCodec(threads: SandboxCodec): SandboxCodec {
  return {
    input: (input) => ((input.columns?.time.length ?? 0) >= THREAD_MIN_CANDLES ? threads.input(input) : inProcessCodec.input(input)),
    answer: (stdout, expected) => (stdout.byteLength >= THREAD_MIN_ANSWER_BYTES ? threads.answer(stdout, expected) : inProcessCodec.answer(stdout, expected)),
  };
}
