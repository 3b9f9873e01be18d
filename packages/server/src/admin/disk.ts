import { badRequest, notFound } from '../app/errors.js';
import type { Storage, StorageEntry } from '../storage/types.js';
import { relativeSegments } from '../storage/local.js';
import { ADMIN_MSG } from './messages.js';

/** A folder the explorer may show: the data areas (`disk`) or the project's own files (`project`). */
export interface DiskRoot {
  key: string;
  label: string;
  scope: 'disk' | 'project';
  storage: Storage;
}

export interface TreeEntry {
  name: string;
  type: 'dir' | 'file';
  rel_path: string;
  bytes: number;
  mtime_iso: string;
  ext: string;
  scope: 'disk' | 'project';
  depth: number;
}

/** Entries looked at per tree request at most: a deep tree over a big folder stops there (truncated). */
export const MAX_TREE_SCAN = 100_000;

const extOf = (entry: StorageEntry) => {
  if (entry.type === 'dir') return '';
  const dot = entry.name.lastIndexOf('.');
  return dot > 0 ? entry.name.slice(dot + 1).toLowerCase() : '';
};

/**
 * The read-only disk explorer (docs/admin.md, "Disk explorer"). Every path is resolved by the
 * root's storage, with its rules: relative only, no `..`, no backslash or control character, and
 * links followed only while they stay inside the root (one leading out is not listed, and cannot
 * be opened). Nothing here writes.
 */
export class DiskExplorer {
  constructor(private readonly roots: readonly DiskRoot[]) {}

  async list() {
    return Promise.all(this.roots.map(async (r) => ({ key: r.key, label: r.label, path: await r.storage.resolve(''), scope: r.scope })));
  }

  root(key: string): DiskRoot {
    if (!key) throw badRequest(ADMIN_MSG.rootMissing);
    const root = this.roots.find((r) => r.key === key);
    if (!root) throw badRequest(ADMIN_MSG.rootUnknown(key, this.roots.map((r) => r.key)));
    return root;
  }

  /**
   * The folder's entries and, up to `depth` levels below, theirs (depth 0: the folder's own
   * entries), folders before files at each level, by name; `total` counts them all.
   */
  async tree(root: DiskRoot, path: string, options: { depth: number; limit: number; offset: number }) {
    const base = relativeSegments(path).join('/');
    const here = await root.storage.stat(base);
    if (!here) throw notFound(ADMIN_MSG.pathNotFound);
    if (here.type !== 'dir') throw badRequest(ADMIN_MSG.notADirectory);
    const page: TreeEntry[] = [];
    let total = 0;
    let truncated = false;
    const walk = async (dir: string, depth: number): Promise<void> => {
      const entries = (await root.storage.entries(dir)).sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : 1) : a.type === 'dir' ? -1 : 1));
      for (const entry of entries) {
        if (total >= MAX_TREE_SCAN) {
          truncated = true;
          return;
        }
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (total >= options.offset && page.length < options.limit) {
          page.push({ name: entry.name, type: entry.type, rel_path: rel, bytes: entry.bytes, mtime_iso: entry.mtime.toISOString(), ext: extOf(entry), scope: root.scope, depth });
        }
        total++;
        if (entry.type === 'dir' && depth < options.depth) await walk(rel, depth + 1);
      }
    };
    await walk(base, 0);
    return { root: root.key, path: base, entries: page, total, truncated, depth: options.depth, limit: options.limit, offset: options.offset };
  }

  /** A file of a root, as a stream. */
  async file(root: DiskRoot, path: string) {
    if (!path) throw badRequest(ADMIN_MSG.pathMissing);
    const rel = relativeSegments(path).join('/');
    const entry = await root.storage.stat(rel);
    if (!entry) throw notFound(ADMIN_MSG.pathNotFound);
    if (entry.type !== 'file') throw badRequest(ADMIN_MSG.notAFile);
    const { stream, bytes } = await root.storage.readStream(rel);
    return { name: entry.name, bytes, stream };
  }
}
