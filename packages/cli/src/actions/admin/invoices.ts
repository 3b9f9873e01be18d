// `bt admin invoices list|download`: the billing files.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { writeFileWhole } from '@bt/core/node';
import { RunError, UsageError } from '../../errors.js';
import { print, renderTable, styles } from '../../output.js';
import { clientOf, printAnswer, wholeNumber, type AdminFlags } from './shared.js';

export interface AdminInvoiceListFlags extends AdminFlags {
  limit?: string;
  offset?: string;
}

export interface AdminInvoiceFlags extends AdminFlags {
  output?: string;
  force?: boolean;
}

interface BillingFile {
  rel: string;
  name: string;
  bytes: number;
  mtime: string;
}

export async function invoicesListCommand(flags: AdminInvoiceListFlags): Promise<void> {
  const limit = wholeNumber('--limit', flags.limit, 1, 5000, 500);
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const client = clientOf(flags);
  // A page of the list (the server pages it since it grew with the sales; an older server sends them all, `total` absent).
  const [list, info] = await Promise.all([client.json<{ items: BillingFile[]; total?: number }>('GET', '/factures_list', { query: { limit, offset }, shape: { items: 'array', total: 'number?' } }), client.json<{ count: number; bytes: number }>('GET', '/factures_info', { shape: { count: 'number', bytes: 'number' } })]);
  if (flags.json) return printAnswer('invoices list', { ...list, ...info });
  const s = styles();
  if (list.items.length === 0) return print(s.dim(offset ? `no billing file from ${offset} (${info.count} in all)` : 'no billing file'));
  print(renderTable(['rel', 'bytes', 'modified (UTC)'], list.items.map((f) => [f.rel, String(f.bytes), f.mtime.slice(0, 16).replace('T', ' ')]), { header: s.dim }));
  const all = list.items.length === info.count;
  print(s.dim(`\n${all ? '' : `${list.items.length}${offset ? ` from ${offset}` : ''} of `}${info.count} files, ${info.bytes} bytes`));
}

/**
 * The name the server gives the file, if it is a plain file name: never a folder (`..`), a hidden
 * file (`.bashrc` would be written into the current folder) or one with control characters.
 */
function plainName(name: string | null): string | null {
  const base = name === null ? '' : basename(name);
  return base === '' || base.startsWith('.') || /[\u0000-\u001f\u007f]/.test(base) ? null : base;
}

export async function invoicesDownloadCommand(rel: string, flags: AdminInvoiceFlags): Promise<void> {
  if (!rel.trim()) throw new UsageError('invalid <rel>: empty (expected a path listed by bt admin invoices list)');
  const { name, bytes } = await clientOf(flags).file('/factures_download', { rel });
  const out = flags.output ?? plainName(name) ?? plainName(rel);
  if (out === null) throw new RunError(`the server gave no plain file name for ${rel}: give -o FILE`);
  if (existsSync(out) && !flags.force) throw new UsageError(`${out} exists: add --force to overwrite it, or -o FILE`);
  try {
    await writeFileWhole(out, bytes);
  } catch (error) {
    throw new RunError(`cannot write ${out}: ${(error as Error).message}`);
  }
  if (flags.json) return printAnswer('invoices download', { rel, file: out, bytes: bytes.byteLength });
  print(`${rel} → ${out} (${bytes.byteLength} bytes)`);
}
