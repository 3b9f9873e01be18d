/**
 * The test command repeats what failed at the very end of its output (scripts/failure-report.mjs,
 * scripts/parallel.mjs; docs/development.md, "The test command"): checked on node:test's own TAP,
 * from real runs of small failing files, and through `runSideBySide` in a process of its own.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script without types
import { FAILURES_PER_STEP, LINES_PER_FAILURE, failedTests, failureReport } from '../../../scripts/failure-report.mjs';

const work = mkdtempSync(join(tmpdir(), 'bt-failure-report-'));
after(() => rmSync(work, { recursive: true, force: true }));
const scripts = join(import.meta.dirname, '..', '..', '..', 'scripts');
// Without node:test's own marker, a child `node --test` reports as a command line does.
const env = { ...process.env, NODE_TEST_CONTEXT: undefined };

/** Runs `node --test` on a file written from `source`, answering its TAP and status. */
function tap(name: string, source: string): { output: string; status: number | null } {
  const file = join(work, name);
  writeFileSync(file, source);
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env });
  return { output: run.stdout + run.stderr, status: run.status };
}

const NESTED = `import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
describe('shared-file.test.ts', () => {
  describe('the ledger (mysql)', () => {
    it('keeps its rows', () => {});
    it('refunds once', () => assert.equal(503, 201));
    describe('deeper', () => {
      it('says why', () => { throw new Error('the reason, line one\\nline two'); });
    });
  });
  describe('a hook that throws', () => {
    before(() => { throw new Error('no database'); });
    it('never runs', () => {});
  });
  it('a top-level one # with a hash', () => assert.ok(false, 'plain'));
  it('skipped', { skip: 'not here' }, () => {});
});
`;

interface Failure { path: string[]; lines: string[] }

describe("the test command's failure report", () => {
  it("finds each failed test in node:test's TAP with the names around it, its error and location, not the suites that only hold it", () => {
    const { output, status } = tap('nested.test.mjs', NESTED);
    assert.equal(status, 1);
    const failures: Failure[] = failedTests(output);
    const paths = failures.map((failure) => failure.path.join(' › '));
    assert.deepEqual(paths.slice(0, 2), ['shared-file.test.ts › the ledger (mysql) › refunds once', 'shared-file.test.ts › the ledger (mysql) › deeper › says why']);
    assert.ok(paths.includes('shared-file.test.ts › a top-level one # with a hash'), paths.join('\n'));
    // The hook's failure is its suite's own, reported on the suite (or the test it cancelled).
    assert.ok(paths.some((path) => path.startsWith('shared-file.test.ts › a hook that throws')), paths.join('\n'));
    assert.ok(!paths.includes('shared-file.test.ts'), 'the file suite failed only through its tests');
    assert.ok(!paths.some((path) => /keeps its rows|skipped/.test(path)), 'passed and skipped tests are not failures');
    const refunds = failures[0].lines.join('\n');
    assert.match(refunds, /^not ok \d+ - refunds once$/m);
    assert.match(refunds, /503 !== 201/);
    assert.match(refunds, /location: '.*nested\.test\.mjs:6:/);
    assert.match(failures[0].lines.at(-1)!, /^ {2}\.\.\.$/, 'the block ends with its YAML end');
    assert.match(failures[1].lines.join('\n'), /the reason, line one\n.*line two/);
    const report: string = failureReport("'npm run test:mariadb -w @bt/server'", output);
    assert.match(report, new RegExp(`^bt: 'npm run test:mariadb -w @bt/server': ${failures.length} failed tests:\n- shared-file\\.test\\.ts › the ledger \\(mysql\\) › refunds once\n {4}not ok`));
  });

  it('bounds what it repeats: so many tests a step, so many lines a test, saying how many more', () => {
    const many = Array.from({ length: FAILURES_PER_STEP + 3 }, (_, i) => `it('fails ${i}', () => { throw new Error(${JSON.stringify(Array.from({ length: LINES_PER_FAILURE }, (_, k) => `line ${k}`).join('\n'))}); });`);
    const { output } = tap('many.test.mjs', `import { it } from 'node:test';\n${many.join('\n')}\n`);
    assert.equal(failedTests(output).length, FAILURES_PER_STEP + 3);
    const report: string = failureReport('step', output);
    assert.match(report, new RegExp(`^bt: step: ${FAILURES_PER_STEP + 3} failed tests \\(the first ${FAILURES_PER_STEP} below\\):`));
    assert.equal(report.match(/^- fails \d+$/gm)!.length, FAILURES_PER_STEP);
    assert.match(report, /^ {4}\(\d+ more lines in the step's output above\)$/m);
    for (const block of report.split(/^- /m).slice(1)) assert.ok(block.split('\n').length <= LINES_PER_FAILURE + 3, block);
  });

  it('a file that failed only by what a hook left running after its tests carries the error node:test printed before it', () => {
    // As a browser test's route handler did when its page closed under it (docs/development.md).
    const late = `import { before, describe, it } from 'node:test';
describe('a server', () => {
  before(async () => { setTimeout(() => Promise.reject(new Error('route.fetch: Request context disposed')), 50); });
  it('passes', () => {});
});
`;
    writeFileSync(join(work, 'passes.test.mjs'), "import { it } from 'node:test';\nit('fine', () => {});\n");
    const file = join(work, 'late.test.mjs');
    writeFileSync(file, late);
    const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file, join(work, 'passes.test.mjs')], { encoding: 'utf8', env });
    assert.equal(run.status, 1);
    const failures: Failure[] = failedTests(run.stdout);
    assert.deepEqual(failures.map((failure) => failure.path.join(' › ')), [file]);
    const lines = failures[0].lines.join('\n');
    assert.match(lines, /error: 'test failed'\n(?: {2}\w+: .*\n)* {2}\.\.\.\nprinted just before it:\n# Error: Test hook "before" at .*late\.test\.mjs:3:3 generated asynchronous activity.*Request context disposed/);
    assert.match(failureReport('step', run.stdout), /^ {4}# Error: Test hook "before"/m);
  });

  it('a step that failed without a failed test (a typecheck, a crash) is shown by its last lines', () => {
    const output = `${Array.from({ length: 50 }, (_, i) => `noise ${i}`).join('\n')}\nsrc/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n`;
    const report: string = failureReport("'npm run typecheck -w @bt/core'", output);
    assert.match(report, /^bt: 'npm run typecheck -w @bt\/core': no failed test in its output; its last 30 lines:\n/);
    assert.match(report, /\n {2}src\/a\.ts\(3,7\): error TS2322.*$/);
    assert.doesNotMatch(report, /noise 20\n/);
  });

  it("runSideBySide repeats a failed step's tests after every chain has ended, last in its output, and exits 1", () => {
    writeFileSync(join(work, 'failing.test.mjs'), NESTED);
    writeFileSync(join(work, 'passing.test.mjs'), "import { it } from 'node:test';\nit('passes', () => {});\n");
    const driver = join(work, 'driver.mjs');
    writeFileSync(
      driver,
      `import { runSideBySide } from ${JSON.stringify(pathToFileURL(join(scripts, 'parallel.mjs')).href)};\n` +
        `const node = process.execPath;\n` +
        `await runSideBySide([[node, ['--test', '--test-reporter=tap', ${JSON.stringify(join(work, 'failing.test.mjs'))}]]], [[[node, ['--test', '--test-reporter=tap', ${JSON.stringify(join(work, 'passing.test.mjs'))}]]]]);\n`,
    );
    const run = spawnSync(process.execPath, [driver], { encoding: 'utf8', env });
    assert.equal(run.status, 1, run.stderr);
    // The foreground step's output was still shown as it came, the background chain's after it.
    assert.match(run.stdout, /not ok \d+ - refunds once[\s\S]*run alongside:[\s\S]*ok 1 - passes[\s\S]*these steps side by side took/);
    const tail = run.stderr.slice(run.stderr.lastIndexOf('failed (exit 1)'));
    assert.match(tail, /^failed \(exit 1\)\nbt: '.*failing\.test\.mjs': \d+ failed tests:\n- shared-file\.test\.ts › the ledger \(mysql\) › refunds once\n/);
    assert.match(tail, /503 !== 201/);
    assert.doesNotMatch(tail, /passing\.test\.mjs/);
  });
});
