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
 * The runner's answer, read. The runner checks the signals, but its answer comes through a pipe
 * the strategy could write to if every Python-level check failed: checked again here, and copied
 * field by field (nothing but the contract's fields, as plain numbers, at most `maxSignals`), so
 * the engine only ever gets valid ones.
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
  if (!answer.ok) {
    const { code, message, line, ...extra } = (answer.error && typeof answer.error === 'object' ? answer.error : { code: 'protocol', message: '', line: null }) as Record<string, unknown>;
    return { kind: 'refused', refusal: { code: String(code), detail: String(message ?? ''), line: typeof line === 'number' ? line : null, extra } };
  }
  const signals = checkedSignals(answer.signals, expected);
  if ('kind' in signals) return signals;
  return { kind: 'ok', info: answer.info, signals, elapsedMs: Number(answer.elapsed_ms) || 0 };
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
