// Runs a package's node:test files on compiled JavaScript (docs/development.md, "Suites on
// compiled JavaScript"): `node ../../scripts/compiled-suite.mjs --compile core,server
// [node --test options] test/*.test.ts`, started in the package's folder as npm does. The
// repository is copied with its TypeScript compiled (scripts/compiled-tree.mjs) and `node --test`
// runs the copy's `.js` files there, with the `@bt/source` condition and source maps (stack traces
// name the .ts files). Each test file's process then loads the server without tsx's loader thread,
// which cost about 2 s of CPU a file. From code, `runCompiledSuite` can also run most files several
// to a process (its `shared` option; docs/development.md, "Test files sharing a process"). The
// copy is removed when the suite ends; one file alone still runs from the sources with
// `tsx --test test/X.test.ts`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCompiledTree } from './compiled-tree.mjs';

const REPOSITORY = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TEST_CONTEXT = fileURLToPath(new URL('./node-test-context.mjs', import.meta.url));
/** A suite stopped by a signal exits as a shell reports it: 128 + the signal's number. */
const stoppedStatus = (signal) => (signal === 'SIGINT' ? 130 : 143);

/** `--compile a,b` names the packages to compile; the rest goes to `node --test` as given. */
export function parseSuiteArgs(argv) {
  const at = argv.indexOf('--compile');
  if (at < 0 || !argv[at + 1]) throw new Error('compiled-suite: --compile <package,...> is required');
  const packages = argv[at + 1].split(',').filter(Boolean);
  const rest = argv.filter((_, i) => i !== at && i !== at + 1);
  const testArgs = rest.map((arg) => (arg.startsWith('-') ? arg : arg.replace(/\.tsx?$/, '.js')));
  return { packages, testArgs };
}

/**
 * Splits the test files `files` (paths as node --test gets them) into `groups` lists of about
 * equal weight (`weight(file)`: the file's size), heaviest first, each list in name order; the
 * files named in `ownProcess` (by file name, `.ts` or `.js`) are left out: they keep a process of
 * their own. Answers { groups, own }.
 */
export function planSharedGroups(files, { groups: count, ownProcess = [], weight }) {
  const alone = new Set(ownProcess.map((name) => name.replace(/\.tsx?$/, '.js')));
  const own = files.filter((file) => alone.has(basename(file)));
  const shared = files.filter((file) => !alone.has(basename(file)));
  const lists = Array.from({ length: Math.max(1, Math.min(count, shared.length)) }, () => ({ files: [], weight: 0 }));
  // Heaviest file first into the lightest list (longest processing time first).
  const byWeight = shared.map((file) => ({ file, weight: weight(file) })).sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file));
  for (const { file, weight: w } of byWeight) {
    const lightest = lists.reduce((best, list) => (list.weight < best.weight ? list : best));
    lightest.files.push(file);
    lightest.weight += w;
  }
  return { groups: lists.filter((list) => list.files.length).map((list) => list.files.sort()), own };
}

/**
 * Writes one `shared-process-<i>.test.js` per group into the folder of its files (all of a group's
 * files must share one folder) in `dir`, the suite's folder in the copy; answers their paths as
 * node --test gets them.
 */
function writeGroupFiles(dir, groups, runner) {
  return groups.map((files, i) => {
    const folder = dirname(files[0]);
    if (files.some((file) => dirname(file) !== folder)) throw new Error(`compiled-suite: a shared group's files must be in one folder: ${files.join(', ')}`);
    const path = join(folder, `shared-process-${i + 1}.test.js`);
    const names = files.map((file) => basename(file));
    writeFileSync(
      join(dir, path),
      `// Written by scripts/compiled-suite.mjs: these test files share this process (scripts/shared-process-group.mjs).\n` +
        `import { runSharedGroup } from ${JSON.stringify(pathToFileURL(runner).href)};\n` +
        `runSharedGroup(import.meta.url, ${JSON.stringify(names)});\n`,
    );
    return path;
  });
}

/** Removes the copies in `copies` left by a suite that was killed: their process is gone. */
export function removeStaleCopies(copies) {
  if (!existsSync(copies)) return;
  for (const name of readdirSync(copies)) {
    // Only what this script names so (see runCompiledSuite): anything else is left alone.
    const pid = Number(/^[\w,.-]+-(\d+)-[0-9a-f]{8}$/.exec(name)?.[1]);
    if (!pid) continue;
    let alive = false;
    try {
      alive = process.kill(pid, 0);
    } catch (err) {
      alive = err.code === 'EPERM';
    }
    if (!alive) rmSync(join(copies, name), { recursive: true, force: true });
  }
}

/**
 * Runs the suite; resolves with its exit status. `cwd`: the package folder in the original tree
 * (the suite runs in the copy's); `env`: the test processes' environment; `root`: the repository
 * (the copy is made in its `.test-build/`); `stdio`: the test processes' output; `shared`: `{
 * groups, ownProcess }` to run the test files in `groups` processes that each import several
 * (planSharedGroups), but those named in `ownProcess`, each in a process of its own as without it.
 */
export async function runCompiledSuite(argv, { cwd = process.cwd(), env = process.env, root = REPOSITORY, stdio = 'inherit', shared = null } = {}) {
  const { packages, testArgs } = parseSuiteArgs(argv);
  const copies = join(root, '.test-build');
  removeStaleCopies(copies);
  // One folder per suite directly under .test-build (a package folder's slash becomes a dot), named
  // by its process so that removeStaleCopies knows a live suite's copy from a dead one's.
  const copy = join(copies, `${packages.join('-').replaceAll('/', '.')}-${process.pid}-${randomBytes(4).toString('hex')}`);
  let child = null;
  let stoppedBy = null;
  const stop = (signal) => {
    stoppedBy = signal;
    child?.kill(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const started = Date.now();
    const count = await buildCompiledTree(root, copy, packages);
    if (stdio === 'inherit') console.log(`compiled suite: ${count} TypeScript files of ${packages.join(', ')} compiled in ${Date.now() - started} ms (${relative(root, copy)})`);
    if (stoppedBy) return stoppedStatus(stoppedBy);
    const dir = join(copy, relative(root, resolve(cwd)));
    let args = testArgs;
    if (shared) {
      const options = testArgs.filter((arg) => arg.startsWith('-'));
      const files = testArgs.filter((arg) => !arg.startsWith('-'));
      const plan = planSharedGroups(files, { ...shared, weight: (file) => statSync(join(dir, file)).size });
      // The groups first: they are the longest, and the files of their own fill the slots after.
      args = [...options, ...writeGroupFiles(dir, plan.groups, fileURLToPath(new URL('./shared-process-group.mjs', import.meta.url))), ...plan.own];
      if (stdio === 'inherit') console.log(`compiled suite: ${files.length - plan.own.length} test files in ${plan.groups.length} shared processes, ${plan.own.length} in a process of their own`);
    }
    // Every test process loads node-test-context.mjs first: Node 20's harness tracks every promise
    // of every test otherwise (docs/development.md, "The test harness's async hook").
    child = spawn(process.execPath, ['--conditions=@bt/source', '--enable-source-maps', '--import', pathToFileURL(TEST_CONTEXT).href, '--test', ...args], {
      cwd: dir,
      stdio,
      env,
    });
    const status = await new Promise((done, fail) => {
      child.on('error', fail);
      child.on('close', (code) => done(code ?? 1));
    });
    return stoppedBy ? stoppedStatus(stoppedBy) : status;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(await runCompiledSuite(process.argv.slice(2)));
}
