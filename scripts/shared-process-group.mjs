// Several test files in one process (docs/development.md, "Test files sharing a process"): each
// file is imported inside a suite named after it, so that the `before`/`after` hooks it declares
// at its top level (the server's `useTestApp`) belong to that suite and run around its own tests
// only, as they did around the file's process. node:test finds the suite a hook or test belongs to
// from the asynchronous context it is declared in, which `import()` and a module's top-level
// `await` keep. The files run one after another, in the order given.
import { describe } from 'node:test';

/**
 * Declares one suite per file of `names` (paths relative to `base`, a file URL); a file that does
 * not load fails its own suite with the loading error, and the files after it still run.
 */
export function runSharedGroup(base, names) {
  for (const name of names) {
    describe(name.replace(/\.js$/, '.ts'), async () => {
      await import(new URL(name, base).href);
    });
  }
}
