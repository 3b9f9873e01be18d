/**
 * The suites' test processes load scripts/node-test-context.mjs, which replaces Node 20's test
 * harness's async hook (docs/development.md, "The test harness's async hook"). Checked on small
 * test files run by `node --test` with it and with Node's own hook (BT_TEST_NODE_ASYNC_HOOK=1):
 * the same report, test by test: tests and hooks declared after awaits belong to their suite, a
 * file imported by a shared process's suite keeps its hooks, and errors thrown later by a test's
 * timers and promises fail that test. The replacement is in place, and the rest of the process
 * still has Node's async hooks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

const MODULE = fileURLToPath(new URL('../../../scripts/node-test-context.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bt-harness-context-'));
after(() => rmSync(work, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'nesting.test.mjs': `
import { after, before, describe, it, test } from 'node:test';
const later = () => new Promise((resolve) => setImmediate(resolve));
describe('outer', async () => {
  await later();
  before(() => console.log('# outer before'));
  it('declared after an await', async () => { await later(); console.log('# first'); });
  describe('inner', async () => {
    await Promise.resolve();
    it('two awaits deep', () => console.log('# second'));
    after(() => console.log('# inner after'));
  });
  after(() => console.log('# outer after'));
});
test('subtests', async (t) => {
  await later();
  await t.test('one', async () => { await later(); });
  await t.test('two', async (t2) => { await t2.test('deeper', () => {}); });
});
`,
  'shared.test.mjs': `
import { describe } from 'node:test';
for (const name of ['file-a.mjs', 'file-b.mjs']) {
  describe(name, async () => { await import(new URL(name, import.meta.url).href); });
}
`,
  'file-a.mjs': `
import { after, before, it } from 'node:test';
const state = { open: false };
before(async () => { await new Promise((r) => setTimeout(r, 5)); state.open = true; console.log('# a before'); });
it('a sees its hook', () => { if (!state.open) throw new Error('a: not opened'); });
await new Promise((r) => setTimeout(r, 5));
it('a after a top-level await', () => {});
after(() => { state.open = false; console.log('# a after'); });
`,
  'file-b.mjs': `
import { after, it } from 'node:test';
it('b runs after a', () => console.log('# b test'));
after(() => console.log('# b after'));
`,
  'errors.test.mjs': `
import { it } from 'node:test';
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
it('passes', () => {});
it('throws later from a timer', async () => { setTimeout(() => { throw new Error('thrown by a timer'); }, 1); await wait(50); });
it('leaves a rejection', async () => { Promise.reject(new Error('rejected, never caught')); await wait(50); });
it('throws after it ended', () => { setTimeout(() => { throw new Error('after the end'); }, 20); });
it('waits', async () => { await wait(100); });
`,
  'probe.test.mjs': `
import asyncHooks from 'node:async_hooks';
import { it } from 'node:test';
import { harnessContext } from ${JSON.stringify(pathToFileURL(MODULE).href)};
it('reports', async () => {
  let promises = 0;
  const hook = asyncHooks.createHook({ init(id, type) { if (type === 'PROMISE') promises++; } }).enable();
  await Promise.resolve(1).then((x) => x + 1);
  hook.disable();
  const inTimer = await new Promise((r) => setTimeout(() => r(asyncHooks.executionAsyncId()), 1));
  console.log('# probe ' + JSON.stringify({ ...harnessContext, promises, inTimer, outside: asyncHooks.executionAsyncId() }));
});
`,
};
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(work, name), text);

// A `node --test` started by a test file would take itself for one of its runner's children.
const { NODE_TEST_CONTEXT: _, NODE_OPTIONS: __, ...env } = process.env;

/** `node --test FILE` with the module loaded; `nodeHook`: with Node's own hook instead. */
function runTests(file: string, nodeHook: boolean) {
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(MODULE).href, '--test', '--test-reporter=tap', file], {
    cwd: work,
    encoding: 'utf8',
    env: { ...env, BT_TEST_NODE_ASYNC_HOOK: nodeHook ? '1' : '0' },
  });
  // What does not depend on timing: the report without durations and stack frames (Node's
  // internal frames differ with what ran just before; a test's own frames are its location).
  const report = run.stdout
    .split('\n')
    .filter((line) => !/duration_ms|^\s+(async )?\S+ \(.*:\d+:\d+\)$|^\s+(node|file):\S*:\d+:\d+$/.test(line))
    .join('\n');
  return { status: run.status, report, stderr: run.stderr };
}

describe("the test harness's async hook, replaced (scripts/node-test-context.mjs)", () => {
  it('declared after awaits, tests and hooks belong to their suite, as with Node’s hook', () => {
    const ours = runTests('nesting.test.mjs', false);
    const node = runTests('nesting.test.mjs', true);
    assert.equal(ours.status, 0, ours.report + ours.stderr);
    assert.equal(ours.report, node.report);
    assert.match(ours.report, /# outer before[\s\S]*# first[\s\S]*# second[\s\S]*# inner after[\s\S]*# outer after/);
    assert.match(ours.report, /# Subtest: outer\n {4}# Subtest: declared after an await[\s\S]* {4}# Subtest: inner\n {8}# Subtest: two awaits deep/);
    assert.match(ours.report, /# Subtest: two\n {8}# Subtest: deeper/);
    assert.match(ours.report, /# tests 6\n# suites 2\n# pass 6\n/);
  });

  it("a file imported by a shared process's suite keeps its hooks and its top-level await", () => {
    const ours = runTests('shared.test.mjs', false);
    const node = runTests('shared.test.mjs', true);
    assert.equal(ours.status, 0, ours.report + ours.stderr);
    assert.equal(ours.report, node.report);
    assert.match(ours.report, /# a before[\s\S]*# a after[\s\S]*# b test[\s\S]*# b after/);
    assert.match(ours.report, /# Subtest: file-a\.mjs\n {4}# Subtest: a sees its hook[\s\S]* {4}# Subtest: a after a top-level await/);
  });

  it("errors thrown later by a test's timers and promises fail that test; after its end, the file", () => {
    const ours = runTests('errors.test.mjs', false);
    const node = runTests('errors.test.mjs', true);
    assert.equal(ours.status, 1);
    assert.equal(ours.report, node.report);
    assert.match(ours.report, /not ok 2 - throws later from a timer\n(?:(?!ok ).*\n)*?\s*failureType: 'uncaughtException'\n\s*error: 'thrown by a timer'/);
    assert.match(ours.report, /not ok 3 - leaves a rejection\n(?:(?!ok ).*\n)*?\s*failureType: 'unhandledRejection'\n\s*error: 'rejected, never caught'/);
    assert.match(ours.report, /# Error: Test "throws after it ended" at .*generated asynchronous activity after the test ended[^\n]*after the end/);
    assert.match(ours.report, /# pass 3\n# fail 2\n/);
  });

  it("is in place, and the rest of the process keeps Node's async hooks", () => {
    const probe = (nodeHook: boolean) => {
      const run = runTests('probe.test.mjs', nodeHook);
      assert.equal(run.status, 0, run.report + run.stderr);
      return JSON.parse(/# probe (.*)/.exec(run.report)![1]);
    };
    const ours = probe(false);
    assert.equal(ours.hookReplaced, true);
    assert.ok(ours.testsEntered >= 1);
    assert.ok(ours.promises >= 2, 'a hook the process creates sees its promises');
    assert.ok(ours.inTimer > 1 && ours.inTimer !== ours.outside, "Node's executionAsyncId in a timer");
    const node = probe(true);
    assert.deepEqual([node.hookReplaced, node.testsEntered], [false, 0], 'BT_TEST_NODE_ASYNC_HOOK=1: nothing replaced');
  });
});
