import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Checks of the start that the parsing of the environment cannot make (docs/server.md,
 * "Environment"): each failure is one line naming the variable, and it comes before anything is
 * written (migrations, the admin account and its printed password, the library seed).
 */

function code(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? String(err);
}

/**
 * DATA_DIR exists as a directory (made here if missing) where this process can write. Created
 * one level at a time: Node's recursive mkdir loops for ever under /proc, where mkdir answers
 * ENOENT for a parent that exists.
 */
export function checkDataDir(dataDir: string, variable = 'DATA_DIR'): void {
  const missing: string[] = [];
  for (let dir = dataDir; ; dir = dirname(dir)) {
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch (err) {
      if ((code(err) === 'ENOENT' || code(err) === 'ENOTDIR') && dirname(dir) !== dir) {
        missing.unshift(dir);
        continue;
      }
      throw new Error(`invalid ${variable}: ${dataDir} cannot be read (${code(err)})`);
    }
    if (!isDir) throw new Error(`invalid ${variable}: ${dir === dataDir ? dataDir : `${dir} (in ${dataDir})`} is a file, not a directory`);
    break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw new Error(`invalid ${variable}: cannot create ${dir} (${code(err)})`);
    }
  }
  const probe = join(dataDir, `.bt-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(probe, '');
  } catch (err) {
    throw new Error(`invalid ${variable}: ${dataDir} is not writable by this process (${code(err)})`);
  } finally {
    rmSync(probe, { force: true });
  }
}

/** A SEED_DIR that was set (not the default fixtures, which a deployment may lack) must be a folder. */
export function checkSeedDir(raw: string | undefined, seedDir: string | null): void {
  if (!raw?.trim() || !seedDir) return;
  let isDir = false;
  try {
    isDir = statSync(seedDir).isDirectory();
  } catch (err) {
    throw new Error(`invalid SEED_DIR: ${seedDir} does not exist (${code(err)}; the fixtures folder, or off)`);
  }
  if (!isDir) throw new Error(`invalid SEED_DIR: ${seedDir} is not a directory (the fixtures folder, or off)`);
}

/** What a failed listen means, as the start's one line (PORT and HOST named). */
export function listenFailure(err: unknown, host: string, port: number): Error {
  switch (code(err)) {
    case 'EADDRINUSE':
      return new Error(`invalid PORT: ${port} is already in use on ${host} (another bt server running? stop it or set PORT to a free port)`);
    case 'EACCES':
      return new Error(`invalid PORT: ${port} needs privileges this process does not have on ${host} (use a port from 1024)`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EINVAL':
      return new Error(`invalid HOST: ${host} is not an address of this machine (${code(err)}; 127.0.0.1, 0.0.0.0 or one of its interfaces)`);
    default:
      return new Error(`cannot listen on ${host}:${port} (HOST, PORT): ${(err as Error)?.message ?? err}`);
  }
}

/**
 * Listens on HOST:PORT and closes at once: a taken port stops the start before migrations, the
 * admin's creation and the seed, rather than after them. The real listen can still lose a race;
 * it fails with the same line.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(listenFailure(err, host, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
