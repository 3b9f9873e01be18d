import { showValue } from './errors.js';

/**
 * What parameter normalisation warns about, as data: a code and its values, so that a consumer
 * can say it in its own language (the server in French); `paramWarningText` is core's English
 * sentence, the one the CLI prints.
 */
export type ParamWarning =
  /** A name the strategy does not read, dropped. `reads`: what it reads; `catalogue`: the reader is the whole catalogue. */
  | { code: 'param_ignored'; given: string; strategy: string | null; reads: readonly string[]; catalogue: boolean; known: boolean; suggestion: string | null }
  /** One parameter given twice (two spellings) with different values; `kept` is the spelling kept. */
  | { code: 'param_given_twice'; param: string; first: string; firstValue: string; second: string; secondValue: string; kept: string }
  /** ema_fast has the longer period: it runs as given. */
  | { code: 'ema_fast_slower'; fast: string; slow: string };

/** The unknown parameter's sentence, without what was done with it (an error says the same). */
export function unknownParamText(w: Extract<ParamWarning, { code: 'param_ignored' }>): string {
  const reader = w.strategy ?? 'this strategy';
  if (w.known && !w.catalogue) return `unknown parameter: ${showValue(w.given)} (${reader} does not read it; it reads ${w.reads.join(', ')})`;
  const hint = w.suggestion ? `; did you mean ${w.suggestion}?` : '';
  const list = w.catalogue ? `expected one of ${w.reads.join(', ')}` : `${reader} reads ${w.reads.join(', ')}`;
  return `unknown parameter: ${showValue(w.given)} (${list}${hint})`;
}

export function paramWarningText(w: ParamWarning): string {
  switch (w.code) {
    case 'param_ignored':
      return `${unknownParamText(w)}: ignored`;
    case 'param_given_twice':
      return `invalid ${w.param}: given twice with different values (${w.first}=${w.firstValue}, ${w.second}=${w.secondValue}): kept ${w.kept}`;
    case 'ema_fast_slower':
      return `ema_fast ${w.fast} is slower than ema_slow ${w.slow}: the trend filter buys when ${w.fast} is above ${w.slow}, as given`;
  }
}
