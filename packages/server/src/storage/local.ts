import { mkdir, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Storage } from './types.js';

export class StoragePathError extends Error {
  constructor(path: string, reason: string) {
    super(`invalid storage path: ${JSON.stringify(path)} (${reason})`);
    this.name = 'StoragePathError';
  }
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

  private async rootReal(): Promise<string> {
    this.realRoot ??= mkdir(this.root, { recursive: true }).then(() => realpath(this.root));
    return this.realRoot;
  }

  async resolve(relativePath: string): Promise<string> {
    const segments = relativeSegments(relativePath);
    const root = await this.rootReal();
    if (segments.length === 0) return root;
    const target = join(root, ...segments);
    // Follow symlinks on the longest existing prefix: a link inside the root must not lead out.
    let existing = target;
    let rest = '';
    for (;;) {
      try {
        const real = await realpath(existing);
        const full = rest ? join(real, rest) : real;
        if (!isInside(root, full)) throw new StoragePathError(relativePath, 'outside the storage root');
        return full;
      } catch (err) {
        if (err instanceof StoragePathError) throw err;
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (existing === root) throw err;
        rest = rest ? join(basename(existing), rest) : basename(existing);
        existing = dirname(existing);
      }
    }
  }

  async write(relativePath: string, data: Uint8Array | string): Promise<void> {
    const path = await this.resolve(relativePath);
    await mkdir(dirname(path), { recursive: true });
    // The directories just created may not contain links, but check again before writing.
    await this.resolve(relativePath);
    await writeFile(path, data);
  }

  async read(relativePath: string): Promise<Uint8Array> {
    return readFile(await this.resolve(relativePath));
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

  async remove(relativePath: string): Promise<void> {
    await rm(await this.resolve(relativePath), { recursive: true, force: true });
  }

  async list(relativePath: string): Promise<string[]> {
    try {
      return (await readdir(await this.resolve(relativePath))).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw err;
    }
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}
