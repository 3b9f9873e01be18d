// Runs many `bt` invocations in one process (the built CLI's `main`, as bin.js calls it), for the
// hostile-flag sweep (test/cli-hostile-flags.test.ts): a process per invocation would take
// minutes. Usage: node --import tsx --conditions=@bt/source flag-sweep-runner.ts JOB.json OUT.jsonl (or its
// compiled .js on plain Node: test/helpers.ts, scriptArgs)
// JOB: { cwd, runs: string[][] }. Each result is appended to OUT as a JSON line as soon as it is
// known, and a `start` line before each run, so a run that takes the process down is named.
import { appendFileSync, readFileSync } from 'node:fs';
import type { main as Main } from '../../src/program.js';

// The built CLI (the test's pretest builds it), whose worker threads sit beside it.
const { main } = (await import(new URL('../../dist/program.js', import.meta.url).href)) as { main: typeof Main };

const [jobPath, outPath] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobPath, 'utf8')) as { cwd: string; runs: string[][]; timeoutMs: number };
process.chdir(job.cwd);

const realStdout = process.stdout.write.bind(process.stdout);
const realStderr = process.stderr.write.bind(process.stderr);
const KEEP = 4000;

for (const args of job.runs) {
  appendFileSync(outPath, `${JSON.stringify({ start: args })}\n`);
  let stdout = '';
  let stderr = '';
  const capture = (add: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture((t) => (stdout = (stdout + t).slice(0, KEEP)));
  process.stderr.write = capture((t) => (stderr = (stderr + t).slice(0, KEEP)));
  process.exitCode = undefined;
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let code: number | 'timeout' | 'threw';
  try {
    code = await Promise.race([main(args), new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), job.timeoutMs)))]);
  } catch (error) {
    code = 'threw';
    stderr += `\n(main threw) ${(error as Error)?.stack ?? String(error)}`;
  } finally {
    clearTimeout(timer);
    process.stdout.write = realStdout;
    process.stderr.write = realStderr;
  }
  process.exitCode = undefined;
  appendFileSync(outPath, `${JSON.stringify({ args, code, stdout, stderr, ms: Math.round(performance.now() - started) })}\n`);
  if (code === 'timeout') break;
}
