// The search space from the command line (docs/cli.md "bt optimize"): `--param name=v1,v2,v3`,
// `--param name=1..5` or `name=0.1..0.5:0.1` (a range with its step), `--sl 10,15,20` and the same
// for --tp1 and --tp2. Values are checked by core's ParameterSpace (the catalogue's rules).
import { ParameterSpace, type SearchSpace } from '@bt/core/optimize';
import { quoted, UsageError, usageFrom } from '../errors.js';
import { decimalNumber, pipsExpected, pipsInRange } from '../options.js';

/** Most values one range may expand to. */
const MAX_RANGE = 1_000;

function numberIn(flag: string, text: string): number {
  const value = text.includes(',') ? Number.NaN : decimalNumber(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a number; decimals take a dot)`);
  return value;
}

const RANGE_NUMBER = /^-?[\d.]+$/;

/**
 * `a..b` or `a..b:step` as its parts, or null when the text is not a range. Cut with indexOf, not
 * one regular expression: `(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)` had as many ways to place the `..` as
 * there were dots, and `--sl 1....x` with 16,000 dots took 3 s (the 128 KB an argument may hold,
 * half an hour).
 */
function rangeParts(text: string): [string, string, string | undefined] | null {
  const colon = text.indexOf(':');
  const main = colon < 0 ? text : text.slice(0, colon);
  const step = colon < 0 ? undefined : text.slice(colon + 1).trim();
  const dots = main.lastIndexOf('..');
  if (dots < 0) return null;
  const [from, to] = [main.slice(0, dots).trim(), main.slice(dots + 2).trim()];
  if (!RANGE_NUMBER.test(from) || !RANGE_NUMBER.test(to) || (step !== undefined && !/^[\d.]+$/.test(step))) return null;
  return [from, to, step];
}

/** `a..b` or `a..b:step` (step 1 by default) as its values, rounded to 12 significant digits. */
function range(flag: string, text: string): number[] | null {
  const m = rangeParts(text);
  if (!m) return null;
  const [from, to] = [numberIn(flag, m[0]), numberIn(flag, m[1])];
  const step = m[2] === undefined ? 1 : numberIn(flag, m[2]);
  if (!(step > 0) || to < from) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected from..to[:step] with from ≤ to and a step > 0)`);
  const n = Math.floor((to - from) / step + 1e-9) + 1;
  if (n > MAX_RANGE) throw new UsageError(`invalid ${flag}: ${quoted(text)} (${n} values, at most ${MAX_RANGE})`);
  return Array.from({ length: n }, (_, i) => Number((from + i * step).toPrecision(12)));
}

/** A list of values: a range, or values separated by commas (text values kept as text, for the catalogue to coerce). */
function values(flag: string, text: string): unknown[] {
  const r = range(flag, text);
  if (r) return r;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected values separated by commas, or a range from..to[:step])`);
  return parts;
}

function pipsList(flag: string, text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  return values(flag, text).map((v) => {
    const n = typeof v === 'number' ? v : numberIn(flag, String(v));
    if (!pipsInRange(n)) throw new UsageError(`invalid ${flag}: ${quoted(text)} (every value is ${pipsExpected})`);
    return n;
  });
}

export interface SpaceFlags {
  param?: string[];
  sl?: string;
  tp1?: string;
  tp2?: string;
}

/** The space of the flags, checked against the strategy (unknown parameters and bad values are usage errors). */
export function spaceFromFlags(strategy: string, flags: SpaceFlags, slMode: 'external' | 'internal'): { space: SearchSpace; grid: ParameterSpace } {
  const params: Record<string, unknown[]> = {};
  for (const word of flags.param ?? []) {
    const at = word.indexOf('=');
    if (at <= 0) throw new UsageError(`invalid --param: ${quoted(word)} (expected name=v1,v2 or name=from..to[:step], e.g. min_wait_candles=1..5)`);
    const name = word.slice(0, at).trim();
    if (Object.hasOwn(params, name)) throw new UsageError(`invalid --param: ${name} given twice (put every value in one --param ${name}=v1,v2)`);
    params[name] = values(`--param ${name}`, word.slice(at + 1));
  }
  const space: SearchSpace = {
    params,
    ...(flags.sl !== undefined ? { slPips: pipsList('--sl', flags.sl) } : {}),
    ...(flags.tp1 !== undefined ? { tp1Pips: pipsList('--tp1', flags.tp1) } : {}),
    ...(flags.tp2 !== undefined ? { tp2Pips: pipsList('--tp2', flags.tp2) } : {}),
  };
  try {
    return { space, grid: new ParameterSpace(strategy, space, slMode) };
  } catch (error) {
    const message = (error as Error).message.replace(/^invalid space: sl_pips:/, 'invalid --sl:').replace(/^invalid space: tp1_pips:/, 'invalid --tp1:').replace(/^invalid space: tp2_pips:/, 'invalid --tp2:').replace(/^invalid space: params\.(\w+):/, 'invalid --param $1:');
    throw usageFrom(new Error(message));
  }
}

/** `--sl`, `--tp1`, `--tp2` with one value each are the base exits (checked by the space too). */
export function singleValue(list: readonly number[] | undefined): number | undefined {
  return list && list.length === 1 ? list[0] : undefined;
}
