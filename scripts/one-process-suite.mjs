// A package's unit suite in one process: `node --test` runs this one file, which imports every
// `test/*.test.ts(x)` of the package it is started in (npm's workspace sets the directory), in
// name order. Each file in a process of its own loaded tsx and the package's modules again: 80
// processes of core's suite spent more than its tests did (docs/development.md, "One process per
// unit suite"). For suites of pure functions only; suites that start servers, workers or `bt`
// processes keep a process per file. One file alone still runs as `tsx --test test/X.test.ts`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const dir = join(process.cwd(), 'test');
const files = readdirSync(dir).filter((name) => /\.test\.tsx?$/.test(name)).sort();
if (files.length === 0) throw new Error(`no test files in ${dir}`);
for (const name of files) {
  try {
    await import(pathToFileURL(join(dir, name)).href);
  } catch (err) {
    // A file that does not load fails by its name, and the files after it still run.
    test(`${name} loads`, () => {
      throw err;
    });
  }
}
