// What the test command prints last when a step failed (docs/development.md, "The test command"):
// a CI log is often read from its end only, and a failed test's lines sit thousands of lines above
// it, in one step's output among several. This module finds them again in a step's output.

/** At most this many failed tests are repeated per step, each at most `LINES_PER_FAILURE` lines. */
export const FAILURES_PER_STEP = 12;
export const LINES_PER_FAILURE = 40;
/** A step that failed without any failed test (a typecheck, a build) is shown by its last lines. */
export const TAIL_LINES = 30;

const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const NOT_OK = /^(\s*)not ok \d+ - (.*?)(?: # (?:SKIP|TODO).*)?$/;
const RESULT = /^\s*(?:not )?ok \d+ - /;
/**
 * What node:test says outside any test: an error a test file's hook or test left behind after it
 * ended (an unhandled rejection, activity after the end). The file then fails with only
 * `error: 'test failed'`; these lines, printed just before, say why.
 */
const DIAGNOSTIC = /^\s*# (?:[A-Za-z]*Error|Warning)\b/;
/** TAP escapes `#` and `\` in names. */
const unescape = (name) => name.replace(/\\(.)/g, '$1');

/**
 * The failed tests in `text`, the TAP that node:test writes when its output is not a terminal:
 * each as `{ path, lines }`, `path` the names of the suites around it and its own (for a shared
 * process, the test file's name first), `lines` its `not ok` line and the YAML block after it
 * (error, location, stack). A suite that failed only because a test inside it did
 * (`failureType: 'subtestsFailed'`) is not repeated: its failed tests are. The error diagnostics
 * printed since the previous result (see `DIAGNOSTIC`) follow the block of the failure they precede.
 */
export function failedTests(text) {
  const lines = text.split(/\r?\n/);
  const failures = [];
  // The open `# Subtest:` names by indentation: node:test announces each test before its result.
  const open = [];
  let diagnostics = [];
  for (let i = 0; i < lines.length; i++) {
    if (DIAGNOSTIC.test(lines[i])) {
      diagnostics.push(lines[i].trim());
      continue;
    }
    const subtest = SUBTEST.exec(lines[i]);
    if (subtest) {
      const depth = subtest[1].length;
      while (open.length && open[open.length - 1].depth >= depth) open.pop();
      open.push({ depth, name: unescape(subtest[2]) });
      continue;
    }
    if (!RESULT.test(lines[i])) continue;
    const before = diagnostics;
    diagnostics = [];
    const failed = NOT_OK.exec(lines[i]);
    if (!failed) continue;
    const indent = failed[1];
    const block = [lines[i].slice(indent.length)];
    // The YAML block: from `  ---` to `  ...` at the result's indentation plus two.
    if (lines[i + 1] === `${indent}  ---`) {
      let j = i + 1;
      for (; j < lines.length; j++) {
        block.push(lines[j].slice(indent.length));
        if (j > i + 1 && lines[j] === `${indent}  ...`) break;
      }
      i = j;
    }
    while (open.length && open[open.length - 1].depth > indent.length) open.pop();
    // The innermost open name at this indentation is the failed test's own announcement.
    const announced = open.length && open[open.length - 1].depth === indent.length;
    const path = [...open.map((entry) => entry.name).slice(0, announced ? -1 : undefined), unescape(failed[2])];
    if (block.some((line) => /^\s*failureType: 'subtestsFailed'$/.test(line))) continue;
    failures.push({ path, lines: before.length ? [...block, 'printed just before it:', ...before] : block });
  }
  return failures;
}

/** The report of one failed step: its failed tests, or its output's last lines when it has none. */
export function failureReport(step, output) {
  const failures = failedTests(output);
  if (!failures.length) {
    const tail = output.replace(/\s+$/, '').split(/\r?\n/).slice(-TAIL_LINES);
    return [`bt: ${step}: no failed test in its output; its last ${tail.length} lines:`, ...tail.map((line) => `  ${line}`)].join('\n');
  }
  const out = [`bt: ${step}: ${failures.length} failed test${failures.length > 1 ? 's' : ''}${failures.length > FAILURES_PER_STEP ? ` (the first ${FAILURES_PER_STEP} below)` : ''}:`];
  for (const failure of failures.slice(0, FAILURES_PER_STEP)) {
    out.push(`- ${failure.path.join(' › ')}`);
    const shown = failure.lines.slice(0, LINES_PER_FAILURE);
    out.push(...shown.map((line) => `    ${line}`));
    if (failure.lines.length > shown.length) out.push(`    (${failure.lines.length - shown.length} more lines in the step's output above)`);
  }
  return out.join('\n');
}
