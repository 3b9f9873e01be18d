import { PARAM_NAMES, findParam, paramDefaults } from '../catalogue/params.js';
import { getStrategy } from '../catalogue/strategies.js';
import { closest } from '../catalogue/closest.js';
import type { StrategyParams } from '../catalogue/types.js';
import { canonicalParamName } from './aliases.js';
import { coerceParam, coerceString, isEmptyValue } from './coerce.js';
import { ParamError, showValue } from './errors.js';
import { describeJsonTextError } from './json-text.js';
import { paramRelationWarnings } from './relations.js';
import { paramWarningText, unknownParamText, type ParamWarning } from './warnings.js';

export interface NormalizeParamsOptions {
  /**
   * An official strategy key (its signature and its family's defaults), or a signature as a list of
   * parameter names (a user strategy's, docs/product.md §2.5). Without it every catalogue parameter is accepted.
   */
  strategy?: string | readonly string[];
  /** What to do with a parameter the strategy does not read: 'error' (CLI, the default) or 'warn' (server: dropped). */
  unknown?: 'error' | 'warn';
  /** Fill the defaults of the parameters not given (default true). */
  defaults?: boolean;
  /**
   * Check the cross-field rules (default true). An optimisation's space checks each value alone and
   * leaves the rules to each combination (docs/engine.md §14).
   */
  relations?: boolean;
}

export interface NormalizedParams {
  /** Canonical names, values of the declared types, in signature order. */
  readonly params: StrategyParams;
  /** What was dropped or looked doubtful, one sentence each (core's English, as the CLI prints it). */
  readonly warnings: string[];
  /** The same, as codes and values, for a consumer that says them in its own words (params/warnings.ts). */
  readonly notices: ParamWarning[];
}

type Raw = Record<string, unknown>;

function toRecord(raw: unknown): Raw {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // Where and why, in words of our own: the engine's message is neither stable nor translatable.
      throw new ParamError('params', raw, `a JSON object (${describeJsonTextError(raw)})`);
    }
    // Text holding JSON text (`"\"texte\""`) is not read twice: it is a string, not an object.
    if (typeof parsed === 'string') throw new ParamError('params', parsed, 'an object of name: value');
    return toRecord(parsed);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ParamError('params', raw, 'an object of name: value');
  return raw as Raw;
}

interface Signature {
  readonly key?: string;
  readonly names: readonly string[];
  readonly defaults: StrategyParams;
}

function signatureOf(strategy: NormalizeParamsOptions['strategy']): Signature {
  if (typeof strategy === 'string') {
    const definition = getStrategy(strategy);
    return { key: definition.key, names: definition.params, defaults: paramDefaults(definition.key) };
  }
  const names = strategy ? [...new Set(strategy.map(canonicalParamName))] : PARAM_NAMES;
  const defaults: StrategyParams = {};
  for (const name of names) {
    const value = findParam(name)?.default;
    if (value !== undefined) defaults[name] = value;
  }
  return { names, defaults };
}

function unknownWarning(given: string, name: string, signature: Signature): Extract<ParamWarning, { code: 'param_ignored' }> {
  const catalogue = signature.names === PARAM_NAMES;
  const known = findParam(name) !== undefined;
  const suggestion = known && !catalogue ? null : (closest(name, signature.names, Math.max(2, Math.floor(name.length / 3))) ?? null);
  return { code: 'param_ignored', given, strategy: signature.key ?? null, reads: signature.names, catalogue, known, suggestion };
}

/** A value of a parameter outside the catalogue (a user strategy's own): kept if it is a plain value. */
function passThrough(name: string, value: unknown): number | boolean | string | undefined {
  if (isEmptyValue(value)) return undefined;
  if (typeof value === 'string') return coerceString(name, value);
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  throw new ParamError(name, value, 'a number, a boolean or a string');
}

/**
 * The one parameter pipeline of the CLI, the server and the web app (docs/architecture.md §2): aliases renamed to
 * canonical names, values coerced to their declared types, parameters filtered to the strategy's
 * signature (unknown ones: an error, or dropped with a warning), defaults filled, cross-field rules
 * checked. Invalid values are always errors (ParamError), whatever `unknown` says.
 */
export function normalizeParams(raw: unknown, options: NormalizeParamsOptions = {}): NormalizedParams {
  const { unknown = 'error', defaults = true, relations = true } = options;
  const record = toRecord(raw);
  const signature = signatureOf(options.strategy);
  const allowed = new Set(signature.names);
  const notices: ParamWarning[] = [];
  const given = new Map<string, { spelling: string; value: number | boolean | string | undefined }>();

  for (const [spelling, value] of Object.entries(record)) {
    const name = canonicalParamName(spelling);
    if (!allowed.has(name)) {
      // A form sends every field; an empty catalogue field the strategy does not read asks for nothing.
      if (findParam(name) && isEmptyValue(value)) continue;
      const notice = unknownWarning(spelling, name, signature);
      if (unknown === 'error') throw new ParamError(spelling, value, '', unknownParamText(notice));
      notices.push(notice);
      continue;
    }
    const definition = findParam(name);
    const coerced = definition ? coerceParam(definition, value) : passThrough(name, value);
    const previous = given.get(name);
    if (coerced === undefined && previous) continue;
    if (previous && previous.value !== undefined && previous.value !== coerced) {
      const both = `${previous.spelling}=${showValue(previous.value)}, ${spelling}=${showValue(coerced)}`;
      const message = `invalid ${name}: given twice with different values (${both})`;
      if (unknown === 'error') throw new ParamError(name, value, '', message);
      // The canonical spelling wins over an alias; between two aliases, the first one given.
      if (spelling === name) given.set(name, { spelling, value: coerced });
      notices.push({ code: 'param_given_twice', param: name, first: previous.spelling, firstValue: showValue(previous.value), second: spelling, secondValue: showValue(coerced), kept: given.get(name)!.spelling });
      continue;
    }
    if (!previous || previous.value === undefined) given.set(name, { spelling, value: coerced });
  }

  const merged: StrategyParams = {};
  const explicit = new Set<string>();
  for (const name of signature.names) {
    const entry = given.get(name);
    if (entry && entry.value !== undefined) {
      merged[name] = entry.value;
      explicit.add(name);
    } else if (signature.defaults[name] !== undefined) {
      merged[name] = signature.defaults[name];
    }
  }
  if (relations) notices.push(...paramRelationWarnings(merged, explicit));
  const warnings = notices.map(paramWarningText);

  if (defaults) return { params: merged, warnings, notices };
  const params: StrategyParams = {};
  for (const name of signature.names) if (explicit.has(name)) params[name] = merged[name];
  return { params, warnings, notices };
}

/** The canonical parameter names an official strategy reads (its signature). */
export function paramSignature(strategyKey: string): readonly string[] {
  return getStrategy(strategyKey).params;
}
