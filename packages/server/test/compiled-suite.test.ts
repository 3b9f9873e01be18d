/**
 * The server's and the CLI's suites run on a compiled copy of the repository
 * (scripts/compiled-suite.mjs; docs/development.md, "Suites on compiled JavaScript"). Checked on a
 * small repository of its own: what the copy holds, that the originals are left as they were,
 * that stack traces still name the TypeScript, and that a suite's failure is the command's.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script without types
import { buildCompiledTree } from '../../../scripts/compiled-tree.mjs';
// @ts-expect-error: a plain .mjs script without types
import { parseSuiteArgs, planSharedGroups, removeStaleCopies, runCompiledSuite } from '../../../scripts/compiled-suite.mjs';

const work = mkdtempSync(join(tmpdir(), 'bt-compiled-suite-'));
after(() => rmSync(work, { recursive: true, force: true }));

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const MANIFEST = { name: '@bt/a', type: 'module', exports: { '.': { '@bt/source': './src/index.ts', default: './dist/index.js' } } };

/** A repository like ours in miniature: a workspace package `a` linked from node_modules/@bt. */
function makeRepository(name: string): string {
  const root = join(work, name);
  write(root, 'package.json', JSON.stringify({ name: 'mini', private: true, workspaces: ['packages/*'] }));
  write(root, '.git/HEAD', 'ref: refs/heads/main\n');
  write(root, 'node_modules/dep/package.json', JSON.stringify({ name: 'dep', main: 'index.js' }));
  write(root, 'node_modules/dep/index.js', 'module.exports = 41;\n');
  mkdirSync(join(root, 'node_modules', '@bt'), { recursive: true });
  symlinkSync(join('..', '..', 'packages', 'a'), join(root, 'node_modules', '@bt', 'a'), 'dir');
  const files: [string, string][] = [
    ['packages/a/package.json', JSON.stringify(MANIFEST, null, 2)],
    ['packages/a/src/index.ts', "import dep from 'dep';\nimport { plusOne } from './util.js';\nexport const value: number = plusOne(dep);\n"],
    ['packages/a/src/util.ts', 'interface Unused { x: number }\nexport function plusOne(n: number): number {\n  return n + 1;\n}\n'],
    ['packages/a/src/fail.ts', "type Reason = string;\nconst reason: Reason = 'on purpose';\nexport function fail(): never {\n  throw new Error(reason);\n}\n"],
    ['packages/a/src/view.tsx', 'export const label = (name: string) => <b>{name}</b>;\n'],
    ['packages/a/src/data/columns.ts', 'export const columns: string[] = [];\n'],
    ['packages/a/test/fixtures/package.json', '{"exports":{"@bt/source":"./x.ts"}}'],
    ['packages/a/src/notes.txt', 'beside the sources\n'],
    ['packages/a/dist/index.js', 'export const value = 0;\n'],
    ['packages/a/test/pass.test.ts', "import assert from 'node:assert/strict';\nimport { it } from 'node:test';\nimport { value } from '@bt/a';\nit('sees the compiled sources', () => assert.equal(value as number, 42));\n"],
    ['packages/a/test/fail.test.ts', "import assert from 'node:assert/strict';\nimport { it } from 'node:test';\nit('fails', () => assert.equal(1 as number, 2));\n"],
    ['packages/a/test/alone.test.ts', "import { it } from 'node:test';\nit('needs nothing of a', () => {});\n"],
    ['packages/b/src/other.ts', 'export const other: string = "not compiled";\n'],
  ];
  for (const [path, text] of files) write(root, path, text);
  return root;
}

describe('suites on compiled JavaScript (scripts/compiled-suite.mjs)', () => {
  it('copies the repository: a .js beside each compiled .ts, hard links, linked node_modules and builds, no .git', async () => {
    const root = makeRepository('tree');
    const copy = join(root, '.test-build', 'a-copy');
    const count = await buildCompiledTree(root, copy, ['a']);
    assert.equal(count, 8, 'index, util, fail, view, data/columns and the three test files');
    assert.ok(existsSync(join(copy, 'packages/a/src/data/columns.js')), 'a source folder named data is copied, not linked');
    assert.doesNotMatch(readFileSync(join(copy, 'packages/a/src/view.js'), 'utf8'), /<b>|: string/, 'JSX compiled too');
    assert.ok(existsSync(join(copy, 'packages/a/src/util.js')));
    assert.doesNotMatch(readFileSync(join(copy, 'packages/a/src/util.js'), 'utf8'), /interface|: number/, 'the types are gone');
    assert.equal(existsSync(join(copy, 'packages/b/src/other.js')), false, 'package b is not compiled');
    for (const path of ['packages/a/src/notes.txt', 'packages/a/src/util.ts', 'packages/b/src/other.ts']) {
      assert.equal(statSync(join(copy, path)).ino, statSync(join(root, path)).ino, `${path} is the same file`);
    }
    assert.ok(lstatSync(join(copy, 'node_modules')).isSymbolicLink(), 'the root node_modules is the original');
    assert.ok(lstatSync(join(copy, 'packages/a/dist')).isSymbolicLink(), 'build outputs are the originals');
    assert.ok(lstatSync(join(copy, 'test-results')).isSymbolicLink(), "screenshots land in the original's test-results");
    assert.ok(existsSync(join(root, 'test-results')));
    assert.equal(existsSync(join(copy, '.git')), false);
    assert.equal(existsSync(join(copy, '.test-build')), false, 'no copy inside the copy');
    assert.equal(readlinkSync(join(copy, 'packages/a/node_modules/@bt/a')), join('..', '..', '..', 'a'), "@bt/a is the copy's package");
    // The copy's manifest names the .js; the original's is unchanged (not written through a hard link).
    assert.equal(JSON.parse(readFileSync(join(copy, 'packages/a/package.json'), 'utf8')).exports['.']['@bt/source'], './src/index.js');
    assert.deepEqual(JSON.parse(readFileSync(join(root, 'packages/a/package.json'), 'utf8')), MANIFEST);
    assert.equal(statSync(join(copy, 'packages/a/test/fixtures/package.json')).ino, statSync(join(root, 'packages/a/test/fixtures/package.json')).ino, "a fixture's package.json is not the package's manifest");
  });

  it('compiles a folder of a package alone, its package still resolving @bt/* to the copy', async () => {
    const root = makeRepository('folder');
    const copy = join(root, '.test-build', 'a-test');
    assert.equal(await buildCompiledTree(root, copy, ['a/test']), 3);
    assert.ok(existsSync(join(copy, 'packages/a/test/pass.test.js')));
    assert.equal(existsSync(join(copy, 'packages/a/src/util.js')), false);
    assert.equal(readlinkSync(join(copy, 'packages/a/node_modules/@bt/a')), join('..', '..', '..', 'a'));
    assert.equal(existsSync(join(copy, 'packages/a/test/node_modules')), false);
  });

  it('runs on plain Node through @bt/source, and stack traces name the .ts file and line', async () => {
    const root = makeRepository('run');
    const copy = join(root, '.test-build', 'a-copy');
    await buildCompiledTree(root, copy, ['a']);
    const cwd = join(copy, 'packages/a');
    const value = spawnSync(process.execPath, ['--conditions=@bt/source', '--input-type=module', '-e', "const { value } = await import('@bt/a'); console.log(value);"], { cwd, encoding: 'utf8' });
    assert.equal(value.stdout.trim(), '42', value.stderr);
    const thrown = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', "const { fail } = await import('./src/fail.js'); fail();"], { cwd, encoding: 'utf8' });
    assert.notEqual(thrown.status, 0);
    assert.match(thrown.stderr, /Error: on purpose/);
    assert.match(thrown.stderr, /src\/fail\.ts:4:\d+/, thrown.stderr);
  });

  it("answers the suite's status and removes its copy", async () => {
    const root = makeRepository('suite');
    const cwd = join(root, 'packages/a');
    // As npm starts it: not as a child of this test runner, which would report to it instead.
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
    assert.equal(await runCompiledSuite(['--compile', 'a', 'test/pass.test.ts'], { root, cwd, env, stdio: 'ignore' }), 0);
    // A package's folder: the copy is still one folder under .test-build, which a suite starting
    // meanwhile would not take for a dead one's (removeStaleCopies).
    const seen: string[][] = [];
    const suite = runCompiledSuite(['--compile', 'a/test', 'test/alone.test.ts'], { root, cwd, env, stdio: 'ignore' });
    while (seen.length === 0 || seen.at(-1)!.length === 0) {
      seen.push(existsSync(join(root, '.test-build')) ? readdirSync(join(root, '.test-build')) : []);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.match(seen.at(-1)![0], new RegExp(`^a\\.test-${process.pid}-[0-9a-f]{8}$`));
    assert.equal(await suite, 0);
    assert.equal(await runCompiledSuite(['--compile', 'a', 'test/pass.test.ts', 'test/fail.test.ts'], { root, cwd, env, stdio: 'ignore' }), 1);
    assert.deepEqual(existsSync(join(root, '.test-build')) ? readdirSync(join(root, '.test-build')) : [], [], 'no copy left behind');
  });

  it("removes copies whose suite's process is gone, and keeps a running one's", () => {
    const copies = join(work, 'copies');
    mkdirSync(join(copies, `a-${process.pid}-0badcafe`), { recursive: true });
    // Process ids stop well below 2^22 on Linux.
    mkdirSync(join(copies, 'a-4999999-deadbeef'), { recursive: true });
    // Not a name this script gives: left alone (a folder of another suite's copy, once, was not).
    mkdirSync(join(copies, 'core-server-web', 'e2e-4999999-deadbeef'), { recursive: true });
    removeStaleCopies(copies);
    assert.equal(existsSync(join(copies, `a-${process.pid}-0badcafe`)), true);
    assert.equal(existsSync(join(copies, 'a-4999999-deadbeef')), false);
    assert.equal(existsSync(join(copies, 'core-server-web', 'e2e-4999999-deadbeef')), true);
  });

  it('runs files several to a process, each with its own top-level hooks, and the ownProcess ones alone', async () => {
    const root = makeRepository('shared');
    // Each file logs its hooks and test with its process id; b fails, c does not load.
    const logged = (name: string, body = '') =>
      "import { appendFileSync } from 'node:fs';\nimport { after, before, it } from 'node:test';\n" +
      `const log = (what: string) => appendFileSync(process.env.SHARED_LOG!, \`${name} \${what} \${process.pid}\\n\`);\n` +
      "before(() => log('before'));\nafter(() => log('after'));\n" +
      `it('${name} test', () => { log('test'); ${body} });\n`;
    write(root, 'packages/a/test/hooks-a.test.ts', logged('a'));
    write(root, 'packages/a/test/hooks-b.test.ts', logged('b', "throw new Error('b fails');"));
    write(root, 'packages/a/test/hooks-c.test.ts', "throw new Error('c does not load');\n");
    write(root, 'packages/a/test/hooks-d.test.ts', logged('d'));
    write(root, 'packages/a/test/hooks-own.test.ts', logged('own'));
    const cwd = join(root, 'packages/a');
    const log = join(root, 'shared.log');
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined, SHARED_LOG: log };
    const files = ['a', 'b', 'c', 'd', 'own'].map((name) => `test/hooks-${name}.test.ts`);
    const status = await runCompiledSuite(['--compile', 'a', ...files], { root, cwd, env, stdio: 'ignore', shared: { groups: 1, ownProcess: ['hooks-own.test.ts'] } });
    assert.equal(status, 1, "a failing file and one that does not load fail the suite");
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' '));
    const shared = lines.filter(([name]) => name !== 'own');
    assert.deepEqual(
      shared.map(([name, what]) => `${name} ${what}`),
      ['a before', 'a test', 'a after', 'b before', 'b test', 'b after', 'd before', 'd test', 'd after'],
      "each file's hooks run around its own tests, and the file after one that does not load still runs",
    );
    assert.equal(new Set(shared.map(([, , pid]) => pid)).size, 1, 'one process for the group');
    const own = lines.filter(([name]) => name === 'own');
    assert.equal(own.length, 3);
    assert.notEqual(own[0][2], shared[0][2], 'the ownProcess file in a process of its own');
    assert.deepEqual(existsSync(join(root, '.test-build')) ? readdirSync(join(root, '.test-build')) : [], [], 'no copy left behind');
  });

  it('splits the shared files into groups of about equal weight, heaviest first, leaving the ownProcess ones', () => {
    const weights: Record<string, number> = { 'test/a.test.js': 9, 'test/b.test.js': 5, 'test/c.test.js': 4, 'test/d.test.js': 3, 'test/e.test.js': 100 };
    const plan = planSharedGroups(Object.keys(weights), { groups: 2, ownProcess: ['e.test.ts'], weight: (file: string) => weights[file] });
    assert.deepEqual(plan, { groups: [['test/a.test.js', 'test/d.test.js'], ['test/b.test.js', 'test/c.test.js']], own: ['test/e.test.js'] });
    assert.deepEqual(planSharedGroups(['test/a.test.js'], { groups: 4, weight: () => 1 }).groups, [['test/a.test.js']], 'no empty group');
  });

  it('passes node --test its options and the files as .js', () => {
    assert.deepEqual(parseSuiteArgs(['--compile', 'core,server', '--test-concurrency=2', 'test/a.test.ts', 'test/b.test.tsx']), {
      packages: ['core', 'server'],
      testArgs: ['--test-concurrency=2', 'test/a.test.js', 'test/b.test.js'],
    });
    assert.throws(() => parseSuiteArgs(['test/a.test.ts']), /--compile <package,...> is required/);
  });
});
