// Runs test steps side by side (docs/development.md, "The test command"): one chain of steps in
// the foreground, its output live; others in the background, each chain's output kept in a file
// and printed whole once it ends, so that logs never interleave. When a step failed, its failed
// tests are repeated at the very end (scripts/failure-report.mjs).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, stepLine } from './ensure-install.mjs';
import { failureReport } from './failure-report.mjs';

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/**
 * Runs steps one after another, output to `fd` ('inherit': this process's own); resolves with the
 * first failure (`{ line, step, output }`: its step line, its command, what it printed), or null.
 */
async function chain(steps, fd) {
  for (const [cmd, args] of steps) {
    const started = Date.now();
    const chunks = [];
    const status = await new Promise((resolve) => {
      const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      for (const [stream, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        stream.on('data', (chunk) => {
          chunks.push(chunk);
          if (fd === 'inherit') to.write(chunk);
          else writeSync(fd, chunk);
        });
      }
      child.once('error', () => resolve(127));
      // Its output is read to the end unless a process it left behind holds the pipe open.
      child.once('exit', (code, signal) => {
        const timer = setTimeout(() => resolve(code ?? signal), 2000);
        child.once('close', () => {
          clearTimeout(timer);
          resolve(code ?? signal);
        });
      });
    });
    const line = `${stepLine(cmd, args, status, Date.now() - started)}\n`;
    if (fd === 'inherit') process.stdout.write(line);
    else writeSync(fd, line);
    if (status !== 0) return { line: line.trim(), step: `'${cmd} ${args.join(' ')}'`, output: Buffer.concat(chunks).toString('utf8') };
  }
  return null;
}

/**
 * `foreground`: steps whose output is shown as it comes; `background`: chains of steps run at the
 * same time. Exits with status 1 after every chain has ended when any step failed.
 */
export async function runSideBySide(foreground, background) {
  const dir = mkdtempSync(join(tmpdir(), 'bt-test-logs-'));
  const logs = background.map((_, i) => join(dir, `chain-${i}.log`));
  const fds = logs.map((path) => openSync(path, 'a'));
  const started = Date.now();
  const results = await Promise.all([chain(foreground, 'inherit'), ...background.map((steps, i) => chain(steps, fds[i]))]);
  for (const [i, path] of logs.entries()) {
    closeSync(fds[i]);
    process.stdout.write(`\nbt: the output of ${background[i].map(([c, a]) => `'${c} ${a.join(' ')}'`).join(', then ')}, run alongside:\n`);
    process.stdout.write(readFileSync(path));
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`bt: these steps side by side took ${seconds(Date.now() - started)}`);
  const failures = results.filter(Boolean);
  if (failures.length) {
    // Last, so that a log read from its end shows what failed and why.
    for (const failure of failures) console.error(`\n${failure.line}\n${failureReport(failure.step, failure.output)}`);
    process.exit(1);
  }
}
