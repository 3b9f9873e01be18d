import { notFound } from '../app/errors.js';
import { relativeSegments } from '../storage/local.js';
import type { Storage } from '../storage/types.js';
import { ADMIN_MSG } from './messages.js';

/** Where invoices are stored in the file storage (docs/server.md, "Storage"). */
export const INVOICES_AREA = 'invoices';
const MAX_DEPTH = 4;

export interface BillingFile {
  /** Relative to the invoices area: `2026/F-2026-000001.pdf`. */
  rel: string;
  name: string;
  bytes: number;
  mtime: string;
}

/**
 * The billing files of the Maintenance tab: the invoice PDFs in the storage's invoices area,
 * listed, downloaded and deleted by their path relative to it. Deleting a file frees its space;
 * the invoice itself (number, content) stays recorded and its PDF can be drawn again.
 */
export class InvoiceFiles {
  constructor(private readonly storage: Storage) {}

  async list(): Promise<BillingFile[]> {
    const files: BillingFile[] = [];
    const walk = async (dir: string, depth: number) => {
      for (const entry of await this.storage.entries(`${INVOICES_AREA}${dir ? `/${dir}` : ''}`)) {
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.type === 'dir') {
          if (depth < MAX_DEPTH) await walk(rel, depth + 1);
        } else files.push({ rel, name: entry.name, bytes: entry.bytes, mtime: entry.mtime.toISOString() });
      }
    };
    await walk('', 0);
    return files.sort((a, b) => (a.mtime === b.mtime ? b.rel.localeCompare(a.rel) : b.mtime.localeCompare(a.mtime)));
  }

  async info(): Promise<{ count: number; bytes: number }> {
    const files = await this.list();
    return { count: files.length, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
  }

  /** The storage path of a billing file: `rel` checked by the storage's rules, then it must be a file. */
  async path(rel: string): Promise<{ path: string; name: string; bytes: number }> {
    const segments = relativeSegments(rel);
    if (segments.length === 0) throw notFound(ADMIN_MSG.invoiceNotFound);
    const path = `${INVOICES_AREA}/${segments.join('/')}`;
    const entry = await this.storage.stat(path);
    if (!entry || entry.type !== 'file') throw notFound(ADMIN_MSG.invoiceNotFound);
    return { path, name: entry.name, bytes: entry.bytes };
  }

  async remove(rel: string): Promise<void> {
    const { path } = await this.path(rel);
    await this.storage.remove(path);
  }
}
