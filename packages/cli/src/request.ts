// A backtest request from command-line values (shared by `bt backtest`, batch plans and the TUI):
// every check that does not need the candles runs first, so a typo is a usage error (exit 2)
// before any file is read. The rules themselves are core's (resolveStrategy, validateExitRules).
import { resolveStrategy, type BacktestRequest } from '@bt/core/backtest';
import { parseParamAssignments, ParamError, showValue } from '@bt/core/params';
import { validateExitRules } from '@bt/core/simulate';
import { asUsage, UsageError } from './errors.js';
import { parsePips } from './options.js';

/** A parameter's name as given, cut as showValue cuts (a JSON key can be as long as the argument). */
const shortName = (name: string) => (name.length > 80 ? `${name.slice(0, 77)}...` : name);

/** `--param k=v` words and `--params-json`, merged; the same name in both must agree. */
export function rawParams(assignments: readonly string[] = [], json?: string): Record<string, unknown> {
  const words = asUsage(() => parseParamAssignments(assignments));
  let fromJson: Record<string, unknown> = {};
  if (json !== undefined) {
    // The argument is quoted cut (showValue: 80 characters), as core quotes a refused value: an
    // argument can hold 128 KB, and the whole of it came back in the message.
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`invalid --params-json: ${showValue(json)} (expected a JSON object: ${(error as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`invalid --params-json: ${showValue(json)} (expected a JSON object of name: value)`);
    // Every parameter is a number, a word or true/false; a nested list or object reached core's
    // messages, which print the value (20,000 nested lists: `bt: Maximum call stack size exceeded`).
    for (const [name, value] of Object.entries(parsed)) {
      if (value !== null && typeof value === 'object') throw new UsageError(`invalid --params-json: ${shortName(name)} is ${Array.isArray(value) ? 'a list' : 'an object'} (expected a number, a word or true/false)`);
    }
    fromJson = parsed as Record<string, unknown>;
  }
  for (const [name, value] of Object.entries(words)) {
    if (Object.hasOwn(fromJson, name) && String(fromJson[name]) !== value) {
      throw new UsageError(`invalid ${shortName(name)}: given twice with different values (--params-json ${showValue(fromJson[name])}, --param ${showValue(value)})`);
    }
  }
  return { ...fromJson, ...words };
}

const EXIT_FLAGS: Record<string, string> = { sl_pips: '--sl', tp1_pips: '--tp1', tp2_pips: '--tp2', sl_mode: '--sl-mode' };

export interface ExitValues {
  readonly slMode?: 'external' | 'internal';
  readonly sl?: string | number;
  readonly tp1?: string | number;
  readonly tp2?: string | number;
}

/** Stops and targets in pips, checked by core's rule (external needs --sl and --tp1). */
export function exitValues(values: ExitValues): Pick<BacktestRequest, 'slPips' | 'tp1Pips' | 'tp2Pips'> & { slMode: 'external' | 'internal' } {
  const pips = (flag: string, v: string | number | undefined) => (typeof v === 'number' ? parsePips(flag, String(v)) : parsePips(flag, v));
  const exits = { slMode: values.slMode ?? 'external', slPips: pips('--sl', values.sl), tp1Pips: pips('--tp1', values.tp1), tp2Pips: pips('--tp2', values.tp2) } as const;
  try {
    validateExitRules({ ...exits, pipSize: 1 });
  } catch (error) {
    const m = /^invalid (\w+): missing \(required with sl_mode=(\w+)\)/.exec((error as Error).message);
    if (m && EXIT_FLAGS[m[1]]) throw new UsageError(`missing ${EXIT_FLAGS[m[1]]} (required with --sl-mode ${m[2]})`);
    throw new UsageError((error as Error).message);
  }
  return exits;
}

/** The strategy and its parameters, normalised by the catalogue (unknown parameters are an error). */
export function checkStrategy(strategy: string, params: unknown): void {
  try {
    resolveStrategy({ strategy, params, symbol: 'EURUSD', unknownParams: 'error' });
  } catch (error) {
    throw error instanceof ParamError ? new UsageError(error.message) : new UsageError((error as Error).message);
  }
}
