// Runs test steps side by side (docs/development.md, "The test command"): one chain of steps in
// the foreground, its output live; others in the background, each chain's output kept in a file
// and printed whole once it ends, so that logs never interleave.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, stepLine } from './ensure-install.mjs';

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** Runs steps one after another, output to `fd`; resolves with the first failure's text, or null. */
async function chain(steps, fd) {
  for (const [cmd, args] of steps) {
    const started = Date.now();
    const status = await new Promise((resolve) => {
      const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd] });
      child.once('error', () => resolve(127));
      child.once('exit', (code, signal) => resolve(code ?? signal));
    });
    const line = `${stepLine(cmd, args, status, Date.now() - started)}\n`;
    if (fd === 'inherit') process.stdout.write(line);
    else writeSync(fd, line);
    if (status !== 0) return line.trim();
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
    for (const failure of failures) console.error(failure);
    process.exit(1);
  }
}
