// `bt admin archive list|restore-all`: the strategy archive.
import { quoted, UsageError } from '../../errors.js';
import { print, renderTable, styles } from '../../output.js';
import { cell, clientOf, printAnswer, wholeNumber, type AdminFlags } from './shared.js';

export interface AdminArchiveFlags extends AdminFlags {
  type?: string;
  limit?: string;
  offset?: string;
  deleted?: boolean;
}

const TYPES = ['gpt', 'import'];

function typeOf(value: string | undefined): string {
  if (!value || !TYPES.includes(value)) throw new UsageError(`invalid --type: ${quoted(value ?? '')} (expected gpt or import)`);
  return value;
}

interface ArchiveItem {
  id: number;
  type: string;
  strategy_id: string | null;
  display_name: string | null;
  user: string | null;
  status: string;
  timestamp: number;
  deleted: boolean;
  files: { name: string; bytes: number }[];
}

export async function archiveListCommand(flags: AdminArchiveFlags): Promise<void> {
  const types = flags.type === undefined ? TYPES : [typeOf(flags.type)];
  const limit = wholeNumber('--limit', flags.limit, 1, 100, 10);
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const client = clientOf(flags);
  const lists = await Promise.all(types.map((type) => client.json<{ type: string; items: ArchiveItem[] }>('GET', '/strategies/recent', { query: { type, limit, offset, include_deleted: flags.deleted ? 'true' : undefined }, shape: { items: 'array' } })));
  const items = lists.flatMap((l) => l.items);
  if (flags.json) return printAnswer('archive list', { items });
  const s = styles();
  if (items.length === 0) return print(s.dim('no archived strategy'));
  const rows = items.map((i) => [i.type, String(i.id), cell(i.strategy_id), cell(i.display_name), cell(i.user), i.status, new Date(i.timestamp * 1000).toISOString().slice(0, 16).replace('T', ' '), cell(i.files.map((f) => f.name)), i.deleted ? 'yes' : 'no']);
  print(renderTable(['type', 'id', 'strategy', 'name', 'user', 'status', 'archived (UTC)', 'files', 'deleted'], rows, { header: s.dim }));
}

export async function archiveRestoreAllCommand(flags: AdminArchiveFlags): Promise<void> {
  const type = typeOf(flags.type);
  const answer = await clientOf(flags).json<{ restored: number }>('PATCH', '/strategies/archive/restore-all', { query: { type }, shape: { restored: 'number' } });
  if (flags.json) return printAnswer('archive restore-all', answer);
  print(`${answer.restored} archived ${type} entr${answer.restored === 1 ? 'y' : 'ies'} restored`);
}
