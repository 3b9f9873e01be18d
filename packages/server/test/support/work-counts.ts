// Work counted instead of timed: a bound in milliseconds failed at random on the loaded 2-core CI
// machine ("speed targets are checked by benchmarks, never by timed unit tests").

/**
 * The longest text a regular expression ran on during `work`, among those `counts` keeps (all by
 * default). Once RegExp.prototype.exec is replaced, test, match, replace and split call it too
 * (the engine leaves its fast path).
 */
export async function longestRegexInput<T>(work: () => T | Promise<T>, counts: (text: string) => boolean = () => true): Promise<{ result: T; longest: number }> {
  const exec = RegExp.prototype.exec;
  let longest = 0;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    if (counts(String(text))) longest = Math.max(longest, String(text).length);
    return exec.call(this, text);
  };
  try {
    return { result: await work(), longest };
  } finally {
    RegExp.prototype.exec = exec;
  }
}

/** How many entries of `list` were iterated (for...of, spread) during `work`. */
export async function entriesIterated<T>(list: readonly unknown[], work: () => Promise<T>): Promise<{ result: T; entries: number }> {
  const writable = list as unknown[];
  let entries = 0;
  Object.defineProperty(writable, Symbol.iterator, {
    configurable: true,
    value: function* () {
      for (let i = 0; i < writable.length; i++) {
        entries++;
        yield writable[i];
      }
    },
  });
  try {
    return { result: await work(), entries };
  } finally {
    delete (writable as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  }
}

/**
 * What `work` returns, and how many entries of any Map it walked (for...of, keys, values, entries,
 * forEach). Past `budget` entries the walk throws at once: the bad case fails in a moment, not
 * after the billion steps it would take.
 */
export function mapEntriesWalked<T>(work: () => T, budget: number): { result: T; walked: number } {
  const proto = Map.prototype as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>;
  const names = [Symbol.iterator, 'entries', 'keys', 'values', 'forEach'] as const;
  const originals = names.map((name) => proto[name]);
  let walked = 0;
  const step = () => {
    if (++walked > budget) throw new Error(`more than ${budget} Map entries walked`);
  };
  for (const [i, name] of names.entries()) {
    const original = originals[i];
    proto[name] =
      name === 'forEach'
        ? function (this: Map<unknown, unknown>, callback: unknown, thisArg: unknown) {
            return original.call(this, (...args: unknown[]) => (step(), (callback as (...a: unknown[]) => unknown).apply(thisArg, args)));
          }
        : function (this: Map<unknown, unknown>) {
            const inner = original.call(this) as Iterator<unknown>;
            return { next: () => (step(), inner.next()), [Symbol.iterator]() { return this; } };
          };
  }
  try {
    return { result: work(), walked };
  } finally {
    for (const [i, name] of names.entries()) proto[name] = originals[i];
  }
}
