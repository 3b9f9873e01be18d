import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, realpathSync, renameSync } from 'node:fs';
import { access, lstat, mkdir, open, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hostTag, processEnded } from '@bt/core/node';
import type { StagedFile, Storage, StorageEntry } from './types.js';

export class StoragePathError extends Error {
  constructor(path: string, reason: string) {
    super(`invalid storage path: ${JSON.stringify(path)} (${reason})`);
    this.name = 'StoragePathError';
  }
}

/**
 * Where interrupted writes may leave their temporary files: one folder at the root, on the same
 * file system as every destination (so the final rename is atomic), never a valid data path.
 */
export const STAGING_DIR = '.staging';

/**
 * A staging file is named for the host and process writing it, so that clearing the staging
 * folder removes only what a process that has ended left there. It removed every file: a server
 * starting (a rolling restart) or an import recovering deleted the staging files another live
 * process of the same DATA_DIR (the old server, a bt-worker) was about to rename, whose write
 * then failed. A name of another host or another form goes once it is STALE_STAGING_MS old.
 */
const HOST_TAG = hostTag(8);
const STAGED = /^[0-9a-f]{16}\.([0-9a-f]{8})-(\d{1,10})\.tmp$/;
export const STALE_STAGING_MS = 60 * 60 * 1000;

/** A staging file's name: random, then this host and the writing process. */
export function stagingFileName(pid = process.pid): string {
  return `${randomBytes(8).toString('hex')}.${HOST_TAG}-${pid}.tmp`;
}

/**
 * The segments of a relative path from a request, or StoragePathError (400): absolute paths, `..`
 * segments, NUL and other control characters, and backslashes are refused. Routes that look a
 * path up before any file access (the CSV shop) call it first, so such a path never reaches a
 * database query either.
 */
export function relativeSegments(relativePath: string): string[] {
  if (typeof relativePath !== 'string') throw new StoragePathError(String(relativePath), 'not a string');
  if (relativePath.includes('\0')) throw new StoragePathError(relativePath, 'NUL byte');
  if (/[\x01-\x1f\x7f]/.test(relativePath)) throw new StoragePathError(relativePath, 'control character');
  if (relativePath.includes('\\')) throw new StoragePathError(relativePath, 'backslash');
  if (isAbsolute(relativePath) || /^[a-zA-Z]:/.test(relativePath)) throw new StoragePathError(relativePath, 'absolute path');
  const segments = relativePath.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new StoragePathError(relativePath, "'..' segment");
  return segments;
}

/**
 * A directory on the local disk. Every path coming from a request goes through `resolve`, which
 * refuses absolute paths, `..` segments, NUL bytes and backslashes, then follows symlinks of the
 * part that exists and refuses anything that lands outside the root.
 */
export class LocalStorage implements Storage {
  readonly root: string;
  private realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The staging folder, made once (not on every write: a backtest writes one workbook per run). */
  private stagingDir: Promise<string> | undefined;

  private staging(): Promise<string> {
    const made = (this.stagingDir ??= this.rootReal().then(async (root) => {
      const dir = join(root, STAGING_DIR);
      await mkdir(dir, { recursive: true });
      return dir;
    }));
    made.catch(() => {
      if (this.stagingDir === made) this.stagingDir = undefined;
    });
    return made;
  }

  private async rootReal(): Promise<string> {
    this.realRoot ??= mkdir(this.root, { recursive: true }).then(() => realpath(this.root));
    return this.realRoot;
  }

  async resolve(relativePath: string): Promise<string> {
    return (await this.resolveSegments(relativePath, relativeSegments(relativePath))).path;
  }

  /**
   * `resolve`, also saying how many trailing segments do not exist yet (0: the whole path exists
   * and `path` is its real path).
   */
  private async resolveSegments(relativePath: string, segments: readonly string[]): Promise<{ path: string; missing: number }> {
    const root = await this.rootReal();
    if (segments.length === 0) return { path: root, missing: 0 };
    const target = join(root, ...segments);
    // Follow symlinks on the longest existing prefix: a link inside the root must not lead out.
    let existing = target;
    let rest = '';
    let missing = 0;
    for (;;) {
      try {
        // The system's realpath(3), synchronously: a few microseconds of metadata on a local disk,
        // where the promise version costs about 40 µs of CPU in thread-pool hand-offs (docs/server.md "Storage").
        const real = realpathSync.native(existing);
        const full = rest ? join(real, rest) : real;
        if (!isInside(root, full)) throw new StoragePathError(relativePath, 'outside the storage root');
        return { path: full, missing };
      } catch (err) {
        if (err instanceof StoragePathError) throw err;
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (existing === root) throw err;
        rest = rest ? join(basename(existing), rest) : basename(existing);
        existing = dirname(existing);
        missing++;
      }
    }
  }

  /**
   * The bytes go to a staging file first, which is then renamed over the destination: a reader,
   * or a process killed at any moment, sees the old file or the new one. (No fsync: that guards
   * against a power cut, not a kill, and would add its latency to every backtest's workbook.)
   */
  async write(relativePath: string, data: Uint8Array | string): Promise<void> {
    // The path is refused before any byte is staged.
    if (relativeSegments(relativePath).length === 0) throw new StoragePathError(relativePath, 'the root is not a file');
    const staged = await this.stage(data);
    try {
      await this.publish(staged, relativePath);
    } catch (err) {
      await this.discard(staged);
      throw err;
    }
  }

  async stage(data: Uint8Array | string): Promise<StagedFile> {
    let temp = join(await this.staging(), stagingFileName());
    try {
      await writeFile(temp, data, { flag: 'wx' });
    } catch (err) {
      await rm(temp, { force: true });
      // The staging folder was removed since it was made (a cleanup by hand): made again, once.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.stagingDir = undefined;
      temp = join(await this.staging(), basename(temp));
      try {
        await writeFile(temp, data, { flag: 'wx' });
      } catch (again) {
        await rm(temp, { force: true });
        throw again;
      }
    }
    return new LocalStaged(this, temp, typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
  }

  /**
   * The staged file renamed over the destination. The folder is checked, not the file: the rename
   * replaces whatever entry has the file's name (a link included) and never writes through it. A
   * folder that exists costs one realpath (docs/server.md "Storage"). Synchronous calls, on
   * purpose: a backtest publishes its workbook holding a database lock (backtests/finish.ts), and
   * each asynchronous file call would keep it across a turn of a busy event loop, where these
   * metadata calls on a local disk take microseconds.
   */
  async publish(staged: StagedFile, relativePath: string): Promise<void> {
    const own = this.ownStaged(staged);
    const segments = relativeSegments(relativePath);
    if (segments.length === 0) throw new StoragePathError(relativePath, 'the root is not a file');
    const parent = segments.slice(0, -1);
    let folder = await this.resolveSegments(relativePath, parent);
    if (folder.missing > 0) {
      mkdirSync(folder.path, { recursive: true });
      // The directories just created may not contain links, but check again before writing.
      folder = await this.resolveSegments(relativePath, parent);
    }
    renameSync(own.temp, join(folder.path, segments[segments.length - 1]));
    own.used = true;
  }

  async discard(staged: StagedFile): Promise<void> {
    const own = this.ownStaged(staged, true);
    if (own.used) return;
    own.used = true;
    await rm(own.temp, { force: true });
  }

  private ownStaged(staged: StagedFile, usedOk = false): LocalStaged {
    if (!(staged instanceof LocalStaged) || staged.storage !== this) throw new Error('a staged file of another storage');
    if (staged.used && !usedOk) throw new Error('a staged file already published or discarded');
    return staged;
  }

  async read(relativePath: string): Promise<Uint8Array> {
    return readFile(await this.resolve(relativePath));
  }

  async readStream(relativePath: string): Promise<{ stream: Readable; bytes: number | null }> {
    const path = await this.resolve(relativePath);
    // Opened before the stream is handed out, so a missing file is an error here, not mid-answer;
    // sized from the opened file, and read up to that size only (a log appended to meanwhile).
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size === 0) {
        await handle.close();
        return { stream: Readable.from([]), bytes: 0 };
      }
      return { stream: handle.createReadStream({ start: 0, end: size - 1 }), bytes: size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async exists(relativePath: string): Promise<boolean> {
    try {
      await stat(await this.resolve(relativePath));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /**
   * Removes the entry itself: a link is removed, never what it leads to (resolving the whole path
   * would delete the link's target, elsewhere in the root). The root itself is never removed.
   */
  async remove(relativePath: string): Promise<void> {
    const segments = relativeSegments(relativePath);
    if (segments.length === 0) throw new StoragePathError(relativePath, 'the storage root itself');
    const parent = await this.resolve(segments.slice(0, -1).join('/'));
    await rm(join(parent, segments[segments.length - 1]), { recursive: true, force: true });
  }

  async list(relativePath: string): Promise<string[]> {
    try {
      const names = (await readdir(await this.resolve(relativePath))).sort();
      return relativeSegments(relativePath).length === 0 ? names.filter((n) => n !== STAGING_DIR) : names;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw err;
    }
  }

  async stat(relativePath: string): Promise<StorageEntry | null> {
    let path: string;
    try {
      path = await this.resolve(relativePath);
    } catch (err) {
      if (err instanceof StoragePathError && /outside the storage root/.test(err.message)) return null;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const info = await stat(path);
      const segments = relativeSegments(relativePath);
      return entryOf(segments[segments.length - 1] ?? '', info);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async entries(relativePath: string): Promise<StorageEntry[]> {
    let dir: string;
    try {
      dir = await this.resolve(relativePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const root = await this.rootReal();
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
      if (relativeSegments(relativePath).length === 0) names = names.filter((n) => n !== STAGING_DIR);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw err;
    }
    const out: StorageEntry[] = [];
    for (const name of names) {
      const full = join(dir, name);
      try {
        const own = await lstat(full);
        if (own.isSymbolicLink()) {
          // A link is shown as what it leads to, and only when that stays inside the root.
          const target = await realpath(full);
          if (!isInside(root, target)) continue;
        }
        const info = own.isSymbolicLink() ? await stat(full) : own;
        if (!info.isFile() && !info.isDirectory()) continue;
        out.push(entryOf(name, info));
      } catch (err) {
        // A dangling link, or an entry removed while listing: not there.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
    }
    return out;
  }

  /** The root exists (created if need be) and this process may write in it. */
  async ping(): Promise<void> {
    await access(await this.rootReal(), constants.W_OK);
  }

  async clearStaging(): Promise<number> {
    const staging = join(await this.rootReal(), STAGING_DIR);
    let names: string[];
    try {
      names = await readdir(staging);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    const now = Date.now();
    const left = await Promise.all(
      names.map(async (name) => {
        const own = STAGED.exec(name);
        if (own && own[1] === HOST_TAG) {
          const pid = Number(own[2]);
          // This process's, or a live one's: a write in progress.
          if (pid === process.pid || pid <= 0 || !processEnded(pid)) return false;
        } else {
          const info = await lstat(join(staging, name)).catch(() => null);
          if (!info || now - info.mtimeMs < STALE_STAGING_MS) return false;
        }
        await rm(join(staging, name), { recursive: true, force: true });
        return true;
      }),
    );
    return left.filter(Boolean).length;
  }
}

/** A file of the staging folder, until it is renamed to its path or removed. */
class LocalStaged implements StagedFile {
  used = false;
  constructor(
    readonly storage: LocalStorage,
    readonly temp: string,
    readonly bytes: number,
  ) {}
}

function entryOf(name: string, info: { isDirectory(): boolean; size: number; mtime: Date }): StorageEntry {
  const dir = info.isDirectory();
  return { name, type: dir ? 'dir' : 'file', bytes: dir ? 0 : info.size, mtime: info.mtime };
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}
