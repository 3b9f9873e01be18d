/**
 * Parses a win rate the way the screens receive it (docs/product.md §3.5): numbers or strings, comma or
 * point decimals, with or without '%'. Returns a percentage 0..100, or null when unreadable.
 * A bare value of 1 or less is a fraction (0.62 -> 62); a value written with '%' is already a
 * percentage (so '0.5%' stays 0.5 and is not read as 50).
 */
export function parseWinrate(value: unknown): number | null {
  let n: number;
  let explicitPercent = false;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string') {
    // trim() and trimEnd() strip the no-break spaces (U+00A0, U+202F) too; the expressions they
    // replace, `[\s…]+$`, tried each space of an inner run as a start (quadratic: 40,000 spaces, 1.5 s).
    let text = value.trim();
    if (text.endsWith('%')) {
      explicitPercent = true;
      // French typography puts a (narrow) no-break space before '%'.
      text = text.slice(0, -1).trimEnd();
    }
    if (text === '' || !/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(text)) return null;
    n = Number(text.replace(',', '.'));
  } else {
    return null;
  }
  if (!Number.isFinite(n) || n < 0) return null;
  return !explicitPercent && n <= 1 ? n * 100 : n;
}

export type HomeWinrateClass = 'great' | 'good';
export type WinrateClass = 'good' | 'mid' | 'bad';

/** Home page cards (docs/product.md §1.2): 'great' at 70 or more, 'good' at 55 or more, else no class. */
export function homeWinrateClass(winrate: unknown): HomeWinrateClass | null {
  const percent = parseWinrate(winrate);
  if (percent === null) return null;
  return percent >= 70 ? 'great' : percent >= 55 ? 'good' : null;
}

/** A home card is 'hot' when its TP1 win rate is 70 or more (docs/product.md §1.2). */
export function isHotWinrate(winrateTp1: unknown): boolean {
  const percent = parseWinrate(winrateTp1);
  return percent !== null && percent >= 70;
}

/** Working area (docs/product.md §2.4): 'good' at 60 or more, 'mid' at 40 or more, else 'bad'; null when unreadable. */
export function winrateClass(winrate: unknown): WinrateClass | null {
  const percent = parseWinrate(winrate);
  if (percent === null) return null;
  return percent >= 60 ? 'good' : percent >= 40 ? 'mid' : 'bad';
}
