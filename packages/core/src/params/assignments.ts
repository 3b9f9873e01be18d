import { ParamError } from './errors.js';

/**
 * CLI `name=value` words as a raw record for normalizeParams (the value stays text; coercion comes
 * after). Splits on the first '=' so values may contain '='. A word without a name, or a name given twice, is an error.
 */
export function parseParamAssignments(words: readonly string[]): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    const name = at < 0 ? '' : word.slice(0, at).trim();
    if (!name) throw new ParamError('parameter', word, 'name=value, e.g. min_wait_candles=3');
    const value = word.slice(at + 1);
    if (Object.hasOwn(raw, name)) {
      throw new ParamError(name, value, '', `invalid ${name}: given twice (${JSON.stringify(raw[name])} and ${JSON.stringify(value)})`);
    }
    raw[name] = value;
  }
  return raw;
}
