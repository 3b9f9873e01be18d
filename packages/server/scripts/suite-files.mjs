// The server's test files, and how both passes run them (docs/development.md, "Test files sharing
// a process"): most files share a few processes, each file imported inside a suite of its own
// (scripts/shared-process-group.mjs), so that the ~2 s of CPU a process spends loading the server
// is paid a few times per pass instead of once per file. The files below keep a process of their
// own, for the reason given.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OWN_PROCESS = {
  'results-workbook-thread.test.ts': "checks that exceljs never loaded on the API's thread, which another file of a shared process may have done",
  'sandbox-corpus.test.ts': "judges its process's event loop while the corpus runs: in a shared process, the heap the files before it left adds collector pauses that are not the sandbox's (a 3.4 s stall once, MariaDB pass, 2026-12-01)",
  'security-uploads.test.ts': "its parse worker's heap limit once took its whole process down (nodejs/node#47224): alone, a crash loses this file only",
};

/** Processes the shared files are split into: the pass runs two files at a time, groups first. */
export const SHARED_GROUPS = 4;

/** The server's test files (`name.test.ts`), in name order; refuses a stale OWN_PROCESS entry. */
export function serverTestFiles() {
  const files = readdirSync(fileURLToPath(new URL('../test/', import.meta.url)))
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
  // A renamed or removed file must not leave an entry that reads as a decision still in force.
  const unknown = Object.keys(OWN_PROCESS).filter((name) => !files.includes(name));
  if (unknown.length) throw new Error(`scripts/suite-files.mjs names test files that do not exist: ${unknown.join(', ')}`);
  return files;
}

/** runCompiledSuite's `shared` option for the server's passes. */
export const SHARED = { groups: SHARED_GROUPS, ownProcess: Object.keys(OWN_PROCESS) };
