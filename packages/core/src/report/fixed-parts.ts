import type { DeflatedPart, Deflater } from './deflate.js';

/**
 * Deflated workbook parts that depend only on the workbook's shape (content types and
 * relationships for a number of sheets, app properties, the styles of a set of number formats),
 * kept for the process: every run's workbook carries the same ones, and deflating each again
 * cost a zlib stream (10-20 µs) per part per run (docs/report.md, "How it is written").
 * Kept per deflater, since a caller's deflater may compress differently.
 */
const kept = new WeakMap<Deflater, Map<string, DeflatedPart | Promise<DeflatedPart>>>();

/** At most this many parts per deflater: keys come from the workbook's shape, a handful in practice. */
const MAX_KEPT = 64;

const encoder = new TextEncoder();

/** The part `key` (a string fully determining its text) deflated, from `text()` the first time. */
export function fixedPart(deflater: Deflater, key: string, text: () => string): DeflatedPart | Promise<DeflatedPart> {
  let parts = kept.get(deflater);
  if (parts === undefined) {
    parts = new Map();
    kept.set(deflater, parts);
  }
  const known = parts.get(key);
  if (known !== undefined) return known;
  const deflated = deflater.deflate(encoder.encode(text()));
  if (parts.size >= MAX_KEPT) parts.clear();
  parts.set(key, deflated);
  if (deflated instanceof Promise) {
    const keptParts = parts;
    // A failed deflate is not kept: the next workbook tries again.
    deflated.then(
      (part) => keptParts.get(key) === deflated && keptParts.set(key, part),
      () => keptParts.get(key) === deflated && keptParts.delete(key),
    );
  }
  return deflated;
}
