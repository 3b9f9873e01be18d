// `bt admin reindex`, `import-output`, `email-recreate [reset]`: the Maintenance tab.
import { basename } from 'node:path';
import { openUserFile, readOpenedFile, type OpenedFile } from '@bt/core/node';
import type { UploadBody } from '../../admin/client.js';
import type { AnswerShape } from '../../admin/answer-shape.js';
import { uploadProgress } from '../../admin/progress.js';
import { fileError, quoted, RunError, UsageError } from '../../errors.js';
import { print, renderTable, styles, warn } from '../../output.js';
import { cell, clientOf, confirmed, printAnswer, wholeNumber, type AdminFlags } from './shared.js';
import type { AdminConfirmFlags } from './users.js';

export interface AdminImportFlags extends AdminFlags {
  url?: string;
  month?: string;
  mode?: string;
  dryRun?: boolean;
  progress?: boolean;
  yes?: boolean;
}

export interface AdminRecreateFlags extends AdminFlags {
  limit?: string;
  offset?: string;
}

interface ReindexAnswer {
  status: string;
  detail?: string;
  result: { ok: boolean; datasets: number; files: number; root: string; errors: { path: string; detail: string }[]; elapsed_ms: number };
}

const REINDEX_SHAPE: AnswerShape = { result: { ok: 'boolean', datasets: 'number', files: 'number', root: 'string', errors: 'array', elapsed_ms: 'number' } };

export async function reindexCommand(flags: AdminFlags): Promise<void> {
  const answer = await clientOf(flags).json<ReindexAnswer>('POST', '/csv/reindex-output', { json: {}, shape: REINDEX_SHAPE });
  if (flags.json) printAnswer('reindex', answer);
  else {
    const { result } = answer;
    print(`reindexed ${result.datasets} of ${result.files} month files under ${result.root} in ${result.elapsed_ms} ms`);
    for (const e of result.errors) warn(`${e.path}: ${e.detail}`);
  }
  if (!answer.result.ok) throw new RunError(`${answer.result.errors.length} file(s) could not be indexed`);
}

interface ImportedFile {
  file: string;
  path: string;
  rows: number;
}

interface ImportAnswer {
  target_month: string;
  mode: string;
  dry_run: boolean;
  added: ImportedFile[];
  skipped: ImportedFile[];
  overwritten: ImportedFile[];
  errors: { file: string; detail: string }[];
  counts: Record<string, number>;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const IMPORT_SHAPE: AnswerShape = {
  target_month: 'string', mode: 'string', dry_run: 'boolean', added: 'array', skipped: 'array', overwritten: 'array', errors: 'array',
  counts: { added: 'number', overwritten: 'number', skipped: 'number', errors: 'number' },
};

export async function importOutputCommand(file: string | undefined, flags: AdminImportFlags): Promise<void> {
  if (file && flags.url) throw new UsageError('give a ZIP file or --url, not both');
  if (!file && !flags.url) throw new UsageError('give the ZIP file to import, or --url URL');
  const month = flags.month ?? new Date().toISOString().slice(0, 7);
  if (!MONTH.test(month)) throw new UsageError(`invalid --month: ${quoted(month)} (expected YYYY-MM)`);
  const mode = flags.mode ?? 'skip';
  if (mode !== 'skip' && mode !== 'overwrite') throw new UsageError(`invalid --mode: ${quoted(mode)} (expected skip or overwrite)`);
  // Replacing months of the library loses the files there: destructive, like the resets (a dry run writes nothing).
  if (mode === 'overwrite' && !flags.dryRun) confirmed(flags, 'overwriting the library months the archive holds');
  if (flags.url && !/^https?:\/\//i.test(flags.url)) throw new UsageError(`invalid --url: ${JSON.stringify(flags.url)} (expected an http:// or https:// address)`);
  const client = clientOf(flags);
  const fields = { target_month: month, mode, dry_run: flags.dryRun ? 'true' : 'false' };
  let answer: ImportAnswer;
  if (file) {
    let opened: OpenedFile;
    let body: UploadBody;
    try {
      opened = await openUserFile(file);
      body = await uploadBody(opened, file);
    } catch (error) {
      throw fileError(file, error);
    }
    try {
      const progress = flags.progress === false ? null : uploadProgress(`uploading ${basename(file)}`);
      answer = await client.upload<ImportAnswer>('/maintenance/import-output', fields, { field: 'file', name: basename(file), body }, (sent, total) => progress?.update(sent, total), IMPORT_SHAPE);
    } finally {
      await opened.file.close();
    }
  } else {
    answer = await client.json<ImportAnswer>('POST', '/maintenance/import-output', { form: new URLSearchParams({ ...fields, source_url: flags.url! }), shape: IMPORT_SHAPE });
  }
  if (flags.json) printAnswer('import-output', answer);
  else printImport(answer);
  if (answer.errors.length > 0) throw new RunError(`${answer.errors.length} entr${answer.errors.length > 1 ? 'ies' : 'y'} of the archive refused (listed above)`);
}

/**
 * The archive as the upload reads it: a regular file piece by piece as it goes out (never whole in
 * memory); a pipe, whose size is known only at its end, read whole first.
 */
async function uploadBody(opened: OpenedFile, path: string): Promise<UploadBody> {
  if (opened.size === null) {
    const bytes = await readOpenedFile(opened, path);
    return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, offset + length) };
  }
  const { file } = opened;
  return {
    size: opened.size,
    read: async (offset, length) => {
      const piece = Buffer.allocUnsafe(length);
      const { bytesRead } = await file.read(piece, 0, length, offset);
      return piece.subarray(0, bytesRead);
    },
  };
}

function printImport(answer: ImportAnswer): void {
  const s = styles();
  const rows = [
    ...answer.added.map((f) => [answer.dry_run ? 'would add' : 'added', f.file, f.path, String(f.rows)]),
    ...answer.overwritten.map((f) => [answer.dry_run ? 'would overwrite' : 'overwritten', f.file, f.path, String(f.rows)]),
    ...answer.skipped.map((f) => ['skipped', f.file, f.path, String(f.rows)]),
    ...answer.errors.map((e) => [s.red('refused'), e.file, e.detail, '']),
  ];
  print(s.bold(`import ${answer.target_month} (${answer.mode}${answer.dry_run ? ', dry run: nothing written' : ''})`));
  if (rows.length) print(renderTable(['status', 'entry', 'library path / reason', 'rows'], rows, { header: s.dim, align: ['left', 'left', 'left', 'right'] }));
  const c = answer.counts;
  print(s.dim(`\n${c.added} added, ${c.overwritten} overwritten, ${c.skipped} skipped, ${c.errors} refused`));
}

interface RecreateAnswer {
  counts: { email: string; deletions: number; recreations: number; blocked: boolean }[];
  total: number;
  limit: number;
}

export async function emailRecreateCommand(flags: AdminRecreateFlags): Promise<void> {
  const limit = wholeNumber('--limit', flags.limit, 1, 5000, 1000);
  // Past 5,000 addresses, the rest were out of reach: --offset asks for the next page.
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const answer = await clientOf(flags).json<RecreateAnswer>('GET', '/email-recreate', { query: { limit, offset: offset || undefined }, shape: { counts: 'array', total: 'number', limit: 'number' } });
  if (flags.json) return printAnswer('email-recreate', answer);
  const s = styles();
  if (answer.counts.length === 0) return print(s.dim(offset ? `no re-creation counter from ${offset} (${answer.total} in all)` : 'no re-creation counter'));
  print(renderTable(['email', 'deletions', 'recreations', 'blocked'], answer.counts.map((c) => [c.email, String(c.deletions), String(c.recreations), c.blocked ? 'yes' : 'no']), { header: s.dim }));
  print(s.dim(`\n${answer.counts.length}${offset ? ` from ${offset}` : ''} of ${answer.total} addresses · blocked after ${answer.limit} re-creations`));
}

export async function emailRecreateResetCommand(email: string | undefined, flags: AdminConfirmFlags): Promise<void> {
  if (!email) confirmed(flags, 'resetting every address\'s re-creation counter');
  const answer = await clientOf(flags).json<{ removed: number; left: number }>('POST', '/reset-email-recreate', { json: email ? { email } : {}, shape: { removed: 'number', left: 'number' } });
  if (flags.json) return printAnswer('email-recreate reset', answer);
  print(`${email ? `counter of ${cell(email)} reset` : `${answer.removed} counters reset`}; ${answer.left} address(es) still counted`);
}
