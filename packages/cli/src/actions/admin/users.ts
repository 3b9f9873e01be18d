// `bt admin users`, `credit add|remove`, `user delete`, `history reset`.
import { print, renderTable, styles } from '../../output.js';
import { cell, clientOf, confirmed, printAnswer, userIdOf, wholeNumber, type AdminFlags } from './shared.js';

export interface AdminUsersFlags extends AdminFlags {
  search?: string;
  sort?: string;
  limit?: string;
  offset?: string;
}

export interface AdminCreditFlags extends AdminFlags {
  amount?: string;
}

export interface AdminConfirmFlags extends AdminFlags {
  yes?: boolean;
}

interface UserRow {
  id: number;
  email: string | null;
  username: string | null;
  plan: string;
  credits: number;
  is_blocked: boolean;
  role: string;
  last_seen: string | null;
}

export async function usersCommand(flags: AdminUsersFlags): Promise<void> {
  const limit = wholeNumber('--limit', flags.limit, 1, 5000, 500);
  const offset = wholeNumber('--offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const answer = await clientOf(flags).json<{ users: UserRow[]; total: number }>('GET', '/get_users', { query: { q: flags.search, sort: flags.sort, limit, offset }, shape: { users: 'array', total: 'number' } });
  if (flags.json) return printAnswer('users', answer);
  const s = styles();
  const rows = answer.users.map((u) => [String(u.id), cell(u.email), cell(u.username), u.plan, String(u.credits), u.is_blocked ? 'yes' : 'no', u.role, cell(u.last_seen?.slice(0, 16).replace('T', ' '))]);
  print(renderTable(['id', 'email', 'username', 'plan', 'credits', 'blocked', 'role', 'last seen (UTC)'], rows, { header: s.dim }));
  print(s.dim(`\n${answer.users.length} of ${answer.total} users${offset ? ` from ${offset}` : ''}`));
}

export async function creditCommand(action: string, userIdText: string, flags: AdminCreditFlags): Promise<void> {
  const userId = userIdOf(userIdText);
  const amount = wholeNumber('--amount', flags.amount, 1, 1000, 1);
  const route = action === 'add' ? '/add_credit' : '/remove_credit';
  const answer = await clientOf(flags).json<{ credits: number }>('POST', route, { json: { user_id: userId, amount }, shape: { credits: 'number' } });
  if (flags.json) return printAnswer(`credit ${action}`, answer);
  print(`${action === 'add' ? 'added' : 'removed'} ${amount} credit${amount > 1 ? 's' : ''} ${action === 'add' ? 'to' : 'from'} user ${userId}: balance ${answer.credits}`);
}

export async function userDeleteCommand(userIdText: string, flags: AdminConfirmFlags): Promise<void> {
  const userId = userIdOf(userIdText);
  confirmed(flags, `deleting user ${userId}`);
  const answer = await clientOf(flags).json('POST', '/delete_user', { json: { user_id: userId }, shape: {} });
  if (flags.json) return printAnswer('user delete', answer);
  print(`user ${userId} deleted (account archived, sessions revoked, ledger kept)`);
}

export async function historyResetCommand(flags: AdminConfirmFlags): Promise<void> {
  confirmed(flags, "resetting every user's purchase history");
  const answer = await clientOf(flags).json<{ hidden: number }>('POST', '/history/reset', { json: { scope: 'all' }, shape: { hidden: 'number' } });
  if (flags.json) return printAnswer('history reset', answer);
  print(`purchase history reset: ${answer.hidden} entries hidden from the histories (ledger, credits and subscriptions untouched)`);
}
