import type { ParamDefinition } from '../catalogue/types.js';
import { ParamError } from './errors.js';
import { parseNumberText } from './numbers.js';
import { parseOverlapRatio } from './overlap.js';

/** Form fields and CLI values that mean true or false (case-insensitive); 'on' is what an HTML checkbox sends. */
const TRUE_WORDS = new Set(['true', '1', 'oui', 'yes', 'on', 'vrai']);
const FALSE_WORDS = new Set(['false', '0', 'non', 'no', 'off', 'faux']);

/** '' , null and undefined mean "not given": the default applies. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function coerceBool(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  throw new ParamError(name, value, 'a boolean: true/false, 1/0 or oui/non');
}

function toNumber(name: string, value: unknown, expected: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = parseNumberText(value);
    if (parsed !== undefined) return parsed;
  }
  throw new ParamError(name, value, expected);
}

export function coerceInt(name: string, value: unknown): number {
  const number = toNumber(name, value, 'an integer');
  if (!Number.isInteger(number)) throw new ParamError(name, value, 'an integer');
  return number;
}

export function coerceFloat(name: string, value: unknown): number {
  return toNumber(name, value, 'a number');
}

/**
 * The longest text a parameter takes. Text parameters name a column (RSI_14, EMA_50, a file's time
 * column) or a choice, and a user strategy's own text defaults are at most 100 characters: the bound
 * leaves room for any real column name, and keeps every value inside what it is written to (a
 * workbook cell holds 32,767 characters; the server's run row, a MySQL TEXT, 65,535 bytes).
 */
export const PARAM_TEXT_MAX = 256;

export function coerceString(name: string, value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new ParamError(name, value, 'a string');
  const text = value.trim();
  if (text.length > PARAM_TEXT_MAX) throw new ParamError(name, value, `a text of at most ${PARAM_TEXT_MAX} characters`);
  return text;
}

/** Parameters naming an indicator column, and the prefix a bare period gets: ema_fast=50 → EMA_50. */
const COLUMN_PREFIX: Readonly<Record<string, string>> = {
  ema_fast: 'EMA', ema_slow: 'EMA', ema_key: 'EMA', rsi_key: 'RSI',
};

function indicatorColumnName(name: string, value: unknown, prefix: string): string {
  const text = coerceString(name, value);
  if (!/^[+-]?[\d.,]+$/.test(text)) return text;
  const period = parseNumberText(text);
  if (period === undefined || !Number.isInteger(period) || period < 1) {
    throw new ParamError(name, value, `a column name such as ${prefix}_${prefix === 'EMA' ? 50 : 14}, or a whole period ≥ 1`);
  }
  return `${prefix}_${period}`;
}

/** Synonyms of choice values (only ob_side has choices), so a form or a CLI can say buy/sell or haussier/baissier. */
const CHOICE_SYNONYMS: Readonly<Record<string, string>> = {
  both: 'both', all: 'both',
  bullish: 'bullish', bull: 'bullish', buy: 'bullish', long: 'bullish', haussier: 'bullish',
  bearish: 'bearish', bear: 'bearish', sell: 'bearish', short: 'bearish', baissier: 'bearish',
};

function describeBounds(definition: ParamDefinition): string {
  const kind = definition.type === 'int' ? 'an integer' : 'a number';
  const { min, max } = definition;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return kind;
}

/**
 * One value converted to its parameter's declared type, from a string (CLI `k=v`, form field) or a
 * JSON value. Returns undefined for an empty value (default applies; for min_overlap_ratio,
 * entry on touch). Throws ParamError naming the parameter, the value and what was expected.
 */
export function coerceParam(definition: ParamDefinition, value: unknown): number | boolean | string | undefined {
  const { name } = definition;
  if (isEmptyValue(value)) return undefined;
  if (name === 'min_overlap_ratio') return parseOverlapRatio(value);
  switch (definition.type) {
    case 'bool':
      return coerceBool(name, value);
    case 'int':
    case 'float': {
      const number = definition.type === 'int' ? coerceInt(name, value) : coerceFloat(name, value);
      if ((definition.min !== undefined && number < definition.min) || (definition.max !== undefined && number > definition.max)) {
        throw new ParamError(name, value, describeBounds(definition));
      }
      return number;
    }
    case 'string': {
      const prefix = COLUMN_PREFIX[name];
      if (prefix) return indicatorColumnName(name, value, prefix);
      const text = coerceString(name, value);
      if (definition.choices) {
        const word = text.toLowerCase();
        const choice = Object.hasOwn(CHOICE_SYNONYMS, word) ? CHOICE_SYNONYMS[word] : word;
        if (!definition.choices.includes(choice)) {
          throw new ParamError(name, value, `one of ${definition.choices.join(', ')}`);
        }
        return choice;
      }
      return text;
    }
  }
}
