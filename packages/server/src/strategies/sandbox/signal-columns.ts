import type { StrategySignal } from '@bt/core/strategies';

/**
 * A personal strategy's signals as columns, one typed array each: what the sandbox's answer
 * becomes once checked (src/strategies/sandbox/codec.ts). Up to 200,000 signals cross from the
 * thread that checked them to the API and on to the engine's thread moved, not copied, and never
 * as 200,000 objects for the API's event loop to clone (docs/security.md, "The strategy sandbox").
 */
export interface SignalColumns {
  index: Int32Array;
  /** 1: buy, -1: sell. */
  side: Int8Array;
  /** NaN: no stop given (the engine's default applies). */
  stop: Float64Array;
  /** NaN in both: no zone. */
  top: Float64Array;
  bottom: Float64Array;
}

export function emptySignalColumns(length = 0): SignalColumns {
  return { index: new Int32Array(length), side: new Int8Array(length), stop: new Float64Array(length), top: new Float64Array(length), bottom: new Float64Array(length) };
}

export const signalCount = (columns: SignalColumns): number => columns.index.length;

/** The columns' buffers, to move them across a thread. */
export function signalBuffers(columns: SignalColumns): ArrayBuffer[] {
  return [columns.index, columns.side, columns.stop, columns.top, columns.bottom].map((a) => a.buffer as ArrayBuffer);
}

/** Checked signals (plain numbers, a zone with top > bottom) into columns. */
export function signalColumnsOf(signals: readonly StrategySignal[]): SignalColumns {
  const columns = emptySignalColumns(signals.length);
  signals.forEach((s, i) => {
    columns.index[i] = s.index;
    columns.side[i] = s.side === 'buy' ? 1 : -1;
    columns.stop[i] = s.stop ?? NaN;
    columns.top[i] = s.zone ? s.zone.top : NaN;
    columns.bottom[i] = s.zone ? s.zone.bottom : NaN;
  });
  return columns;
}

/** The signals as core's engine reads them (on the engine's thread). */
export function signalsOfColumns(columns: SignalColumns): StrategySignal[] {
  const { index, side, stop, top, bottom } = columns;
  const out: StrategySignal[] = new Array(index.length);
  for (let i = 0; i < index.length; i++) {
    const base = { index: index[i], side: side[i] > 0 ? ('buy' as const) : ('sell' as const) };
    const withStop = Number.isNaN(stop[i]) ? base : { ...base, stop: stop[i] };
    out[i] = Number.isNaN(top[i]) ? withStop : { ...withStop, zone: { top: top[i], bottom: bottom[i] } };
  }
  return out;
}

/** How the columns travel in a queued job's JSON (Redis): each column's bytes in base64. */
export interface SignalColumnsText {
  index: string;
  side: string;
  stop: string;
  top: string;
  bottom: string;
}

const base64Of = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

export function signalColumnsText(columns: SignalColumns): SignalColumnsText {
  return { index: base64Of(columns.index), side: base64Of(columns.side), stop: base64Of(columns.stop), top: base64Of(columns.top), bottom: base64Of(columns.bottom) };
}

/** A job's columns read back; an error when they do not make one table (a job written by something else). */
export function signalColumnsFromText(text: SignalColumnsText): SignalColumns {
  const bytes = (name: keyof SignalColumnsText, width: number) => {
    const value = text?.[name];
    if (typeof value !== 'string') throw new Error(`invalid signal columns: ${name} is not base64 text`);
    const raw = Buffer.from(value, 'base64');
    if (raw.length % width !== 0) throw new Error(`invalid signal columns: ${name} holds ${raw.length} bytes, not a multiple of ${width}`);
    // Its own buffer, aligned for the typed array (a decoded Buffer may sit in a shared pool).
    const own = new ArrayBuffer(raw.length);
    new Uint8Array(own).set(raw);
    return own;
  };
  const columns: SignalColumns = {
    index: new Int32Array(bytes('index', 4)),
    side: new Int8Array(bytes('side', 1)),
    stop: new Float64Array(bytes('stop', 8)),
    top: new Float64Array(bytes('top', 8)),
    bottom: new Float64Array(bytes('bottom', 8)),
  };
  const n = columns.index.length;
  for (const name of ['side', 'stop', 'top', 'bottom'] as const) {
    if (columns[name].length !== n) throw new Error(`invalid signal columns: ${name} has ${columns[name].length} values, index ${n}`);
  }
  return columns;
}
