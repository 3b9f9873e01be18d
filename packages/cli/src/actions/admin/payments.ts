// `bt admin payments attention|resolve`: the payment situations that need the operator
// (docs/admin.md "Payments to settle"): money to give back or a decision to take.
import { quoted, UsageError } from '../../errors.js';
import { print, renderTable, styles, visible } from '../../output.js';
import { clientOf, printAnswer, wholeNumber, type AdminFlags } from './shared.js';

export interface AttentionListFlags extends AdminFlags {
  all?: boolean;
  limit?: string;
  offset?: string;
}

export interface AttentionResolveFlags extends AdminFlags {
  note?: string;
}

interface AttentionItem {
  id: number;
  kind: string;
  label: string;
  provider: string;
  provider_reference: string;
  payment_reference: string | null;
  user_id: number | null;
  amount_cents: number | null;
  currency: string | null;
  created_at: string;
  resolved_at: string | null;
  note: string | null;
}

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const amount = (item: AttentionItem) => (item.amount_cents === null ? '-' : `${(item.amount_cents / 100).toFixed(2)} ${item.currency ?? ''}`.trim());

export async function attentionCommand(flags: AttentionListFlags): Promise<void> {
  const limit = wholeNumber('--limit', flags.limit, 1, 1000, 200);
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const status = flags.all ? 'all' : 'open';
  const answer = await clientOf(flags).json<{ items: AttentionItem[]; total: number; open: number }>('GET', '/payments/attention', {
    query: { status, limit, offset },
    shape: { items: 'array', total: 'number', open: 'number' },
  });
  if (flags.json) return printAnswer('payments attention', answer);
  const s = styles();
  if (answer.items.length === 0) return print(s.dim(flags.all ? 'no payment situation recorded' : 'no open payment situation'));
  const rows = answer.items.map((i) => [String(i.id), minute(i.created_at), i.kind, i.provider, i.provider_reference, i.payment_reference ?? '-', i.user_id === null ? '-' : String(i.user_id), amount(i), i.resolved_at ? minute(i.resolved_at) : 'open']);
  print(renderTable(['id', 'created (UTC)', 'kind', 'provider', 'provider ref', 'payment', 'user', 'amount', 'resolved (UTC)'], rows, { header: s.dim }));
  print();
  // The French sentence of each kind, once: what the item asks of the operator.
  for (const [kind, label] of new Map(answer.items.map((i) => [i.kind, i.label]))) print(`${s.dim(visible(kind))}: ${visible(label)}`);
  print(s.dim(`\n${answer.open} open${flags.all ? `, ${answer.total} in all` : ''}; close one with: bt admin payments resolve ID --note TEXT`));
}

export async function resolveCommand(idText: string, flags: AttentionResolveFlags): Promise<void> {
  const id = Number(idText);
  if (!/^\s*\d+\s*$/.test(idText) || !Number.isSafeInteger(id) || id < 1) throw new UsageError(`invalid <id>: ${quoted(idText)} (expected an item id, a whole number ≥ 1; see bt admin payments attention)`);
  const note = flags.note ?? '';
  if ([...note].length > 500) throw new UsageError('invalid --note: longer than 500 characters');
  const answer = await clientOf(flags).json<{ item: AttentionItem }>('POST', `/payments/attention/${id}/resolve`, { json: note ? { note } : {}, shape: { item: { id: 'number', kind: 'string', resolved_at: 'string' } } });
  if (flags.json) return printAnswer('payments resolve', answer);
  print(`payment situation ${id} (${visible(answer.item.kind)}) closed${answer.item.note ? `: ${visible(answer.item.note)}` : ''}`);
}
