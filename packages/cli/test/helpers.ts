// Runs the built binary (dist/bin.js, built by the package's pretest) as a subprocess, the way
// users and CI run it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CandleFileError, type ReadCandlesOptions } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';
import { scriptArgs as serverScriptArgs } from '../../server/test/support/entry.js';

export const cliDir = join(import.meta.dirname, '..');
export const root = join(cliDir, '../..');
export const bin = join(cliDir, 'dist/bin.js');
export const fixtures = join(root, 'fixtures');
export const fixture = (path: string) => join(fixtures, path);

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  readonly input?: string;
}

/** `bt ...args` with colours off unless the test asks (NO_COLOR and FORCE_COLOR removed from the inherited environment). */
export function bt(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, BT_DEBUG: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? root, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix = 'bt-cli-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const EURUSD_H1 = fixture('official/EURUSD_H1_2017-2018.csv');

/**
 * Node's arguments to run one of this package's modules (`test/support/x`, without extension) as a
 * process of its own: under tsx from the sources, the copy's JavaScript on plain Node in the
 * suite's compiled copy (the server's test/support/entry.ts).
 */
export const scriptArgs = (module: string): string[] => serverScriptArgs(join(cliDir, module));


/** What core's reader says about a bad file: the CLI prints it after `bt: ` (core's tests check its wording). */
export async function readerError(path: string, options: ReadCandlesOptions = {}): Promise<CandleFileError> {
  try {
    await readCandlesFile(path, options);
  } catch (error) {
    if (error instanceof CandleFileError) return error;
    throw error;
  }
  throw new Error(`${path} reads without error`);
}

export const readerMessage = async (path: string, options: ReadCandlesOptions = {}) => (await readerError(path, options)).message;

/** Runs `fn` over the items, at most `limit` at a time, results in item order (bad-input tables run their cases side by side). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
