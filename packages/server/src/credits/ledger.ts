import { CREDIT_COSTS, type PaidAction } from '@bt/core/catalogue';
import { QueryTypes, UniqueConstraintError, Utils, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import type { CreditEntry, LedgerKind } from '../db/models.js';

export type GrantReason = 'verification' | 'admin' | 'purchase' | 'subscription' | 'bonus' | 'dispute_won';

export interface LedgerOptions {
  /** An external id (payment id, run id): the same kind and reference apply once. */
  reference?: string;
  meta?: Record<string, unknown>;
  /** Join a transaction the caller already holds (the change still lands with its row). */
  transaction?: Transaction;
  /**
   * The reference is new (a fresh run id): no look-up before the change. The unique index on
   * (kind, reference) still refuses a second use.
   */
  freshReference?: boolean;
  /**
   * More columns of the user's row changed by the same guarded UPDATE, and read back with the
   * balance (a backtest's run counter: the charge and the counter in one statement).
   */
  alongside?: { set: Record<string, unknown>; read: string[] };
}

export interface LedgerResult {
  entry: CreditEntry;
  /** False when the reference had already been applied: nothing changed this time. */
  applied: boolean;
  balance: number;
  /** The `alongside.read` columns after the change. */
  read?: Record<string, unknown>;
}

/** What the commit hook reads of a ledger row. */
export type LedgerFact = Pick<CreditEntry, 'kind' | 'reason' | 'amount'>;

export class InsufficientCreditsError extends Error {
  constructor(readonly needed: number, readonly balance: number) {
    super(`insufficient credits: ${needed} needed, balance ${balance}`);
    this.name = 'InsufficientCreditsError';
  }
}

export class LedgerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerError';
  }
}

/**
 * The account is gone (deleted, or never was): a paid action that passed authentication just
 * before its account's deletion committed. The request's key no longer opens anything: answered
 * 401 like any request after a deletion (app/errorMiddleware.ts), never a 500.
 */
export class AccountGoneError extends LedgerError {
  constructor(readonly userId: number) {
    super(`unknown user: ${userId}`);
    this.name = 'AccountGoneError';
  }
}

/**
 * The credit ledger is the truth about credits (docs/architecture.md §3). A balance changes only inside the
 * transaction that writes its ledger row, and a spend is one guarded UPDATE
 * (`credits = credits - cost WHERE credits >= cost`), so concurrent spends cannot overdraw.
 * Costs come from @bt/core's catalogue, never from here.
 */
export class CreditLedger {
  /**
   * `onApplied` sees every row the ledger writes, inside its transaction (the admin statistics'
   * event log, docs/admin.md): a change and its event land together or not at all.
   */
  constructor(
    private readonly db: Database,
    private readonly onApplied: (entry: CreditEntry, transaction: Transaction) => Promise<void> = async () => {},
    /** Every row the ledger writes, once its transaction has committed (the metrics: a rolled-back charge was never charged). */
    private readonly onCommitted: (entry: LedgerFact) => void = () => {},
  ) {}

  /**
   * A row a caller wrote with its own SQL, once committed (a backtest's charge, backtests/charge.ts):
   * the commit hook counts it as one of the ledger's.
   */
  committed(entry: LedgerFact): void {
    this.onCommitted(entry);
  }

  async balance(userId: number, transaction?: Transaction): Promise<number> {
    const user = await this.db.models.User.findByPk(userId, { attributes: ['credits'], transaction });
    if (!user) throw new AccountGoneError(userId);
    return user.credits;
  }

  /** Adds credits (verification, admin, purchase...). With a reference, credits once. */
  async grant(userId: number, amount: number, reason: GrantReason, options: LedgerOptions = {}): Promise<LedgerResult> {
    checkAmount(amount);
    return this.apply(userId, 'grant', reason, amount, options);
  }

  /** Charges a paid action at its catalogue price; throws InsufficientCreditsError. */
  async spend(userId: number, action: PaidAction, options: LedgerOptions = {}): Promise<LedgerResult> {
    const cost = CREDIT_COSTS[action];
    if (cost === undefined) throw new LedgerError(`invalid paid action: ${String(action)} (expected one of ${Object.keys(CREDIT_COSTS).join(', ')})`);
    return this.apply(userId, 'spend', action, -cost, options);
  }

  /** Takes credits back for another reason (an admin correction); never below zero either. */
  async debit(userId: number, amount: number, reason: string, options: LedgerOptions = {}): Promise<LedgerResult> {
    checkAmount(amount);
    return this.apply(userId, 'spend', reason, -amount, options);
  }

  /**
   * Takes back up to `owed` credits (a refunded or disputed payment, payments/reversals.ts): what
   * the balance holds, never below zero; the rest is the shortfall, written in the row's meta. One
   * row even when nothing could be taken (amount 0), so the admin sees the reversal. Inside the
   * caller's transaction; an archived account too (bookkeeping only). Once per reference.
   */
  async takeBack(userId: number, owed: number, reason: string, options: LedgerOptions & { reference: string; transaction: Transaction }): Promise<LedgerResult & { taken: number; shortfall: number }> {
    checkAmount(owed);
    const t = options.transaction;
    const existing = await this.findReference('spend', options.reference, t);
    if (existing) {
      const done = await this.alreadyApplied(existing, userId, t);
      return { ...done, taken: -existing.amount, shortfall: owed + existing.amount };
    }
    // A locking read: the balance as it is now (MySQL's REPEATABLE READ snapshot could be older).
    const user = await this.db.models.User.findByPk(userId, { attributes: ['credits'], transaction: t, lock: t.LOCK.UPDATE });
    if (!user) throw new AccountGoneError(userId);
    const taken = Math.min(owed, Math.max(0, user.credits));
    const shortfall = owed - taken;
    // Nothing to take: no UPDATE (MySQL counts an UPDATE that changes nothing as no row at all).
    const balance = taken > 0 ? (await this.changeBalance(userId, -taken, undefined, t, true)).balance : user.credits;
    const entry = await this.db.models.CreditEntry.create(
      { userId, kind: 'spend', reason, amount: -taken, balanceAfter: balance, reference: options.reference, meta: JSON.stringify({ ...options.meta, owed, taken, shortfall }) },
      { transaction: t },
    );
    await this.onApplied(entry, t);
    t.afterCommit(() => this.onCommitted(entry));
    return { entry, applied: true, balance, taken, shortfall };
  }

  /** Gives back what the spend with this reference took (a failed paid action); once. */
  async refund(userId: number, reference: string, options: Omit<LedgerOptions, 'reference'> = {}): Promise<LedgerResult> {
    const spent = await this.db.models.CreditEntry.findOne({
      where: { userId, kind: 'spend', reference },
      transaction: options.transaction,
    });
    if (!spent) throw new LedgerError(`nothing to refund: no spend with reference ${JSON.stringify(reference)} for user ${userId}`);
    return this.apply(userId, 'refund', spent.reason, -spent.amount, { ...options, reference });
  }

  /** Whether a grant with this reference was applied (the sign-up credits' `signup:{id}`, say). */
  async granted(reference: string, transaction?: Transaction): Promise<boolean> {
    return (await this.findReference('grant', reference, transaction)) !== null;
  }

  /** Newest first. */
  history(userId: number, limit = 100): Promise<CreditEntry[]> {
    return this.db.models.CreditEntry.findAll({ where: { userId }, order: [['id', 'DESC']], limit });
  }

  private async apply(userId: number, kind: LedgerKind, reason: string, delta: number, options: LedgerOptions): Promise<LedgerResult> {
    const { reference } = options;
    const work = async (t: Transaction): Promise<LedgerResult> => {
      if (reference !== undefined && !options.freshReference) {
        const existing = await this.findReference(kind, reference, t);
        if (existing) return this.alreadyApplied(existing, userId, t);
      }
      const { balance, read } = await this.changeBalance(userId, delta, options.alongside, t, kind === 'refund');
      const { CreditEntry } = this.db.models;
      const entry = await CreditEntry.create(
        { userId, kind, reason, amount: delta, balanceAfter: balance, reference: reference ?? null, meta: options.meta ? JSON.stringify(options.meta) : null },
        { transaction: t },
      );
      await this.onApplied(entry, t);
      t.afterCommit(() => this.onCommitted(entry));
      return { entry, applied: true, balance, read };
    };

    if (options.transaction) return work(options.transaction);
    try {
      return await this.db.transaction(work);
    } catch (err) {
      // Two callers raced past the reference check: the unique index let one in and rolled
      // the other back (balance included). Report the winner's row.
      if (err instanceof UniqueConstraintError && reference !== undefined) {
        const existing = await this.findReference(kind, reference);
        if (existing) return this.alreadyApplied(existing, userId);
      }
      throw err;
    }
  }

  /**
   * The guarded UPDATE (`credits = credits - cost WHERE credits >= cost`, with `alongside.set`)
   * and the balance read back in the same transaction. Written as SQL rather than
   * `User.update` + `User.findByPk`: on the path of every backtest, Sequelize's model machinery
   * cost more CPU than the statements, and SQLite reads the row back with RETURNING in the same
   * statement (MySQL/MariaDB have no UPDATE ... RETURNING: a SELECT follows).
   */
  private async changeBalance(userId: number, delta: number, alongside: LedgerOptions['alongside'], t: Transaction, archivedToo = false): Promise<{ balance: number; read?: Record<string, unknown> }> {
    const { sequelize, dialect, models } = this.db;
    const { User } = models;
    const attributes = User.getAttributes();
    const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
    const column = (name: string) => {
      const field = (attributes as Record<string, { field?: string } | undefined>)[name]?.field;
      if (!field) throw new LedgerError(`unknown user column: ${name}`);
      return field;
    };
    const sets = [`${q('credits')} = ${q('credits')} ${delta < 0 ? '-' : '+'} ${Math.abs(delta)}`];
    for (const [name, value] of Object.entries(alongside?.set ?? {})) {
      sets.push(`${q(column(name))} = ${value instanceof Utils.Literal ? String(value.val) : sequelize.escape(value as string | number)}`);
    }
    // As User.update would: the row's updated_at (timestamps are on for users).
    sets.push(`${q('updated_at')} = ${sequelize.escape(new Date() as unknown as string)}`);
    const guard = delta < 0 ? ` AND ${q('credits')} >= ${-delta}` : '';
    // A refund lands on an archived (deleted) account too: it only gives back what a spend took,
    // and refusing it rolled back the cancel of a stale run, which stopped the sweep at that run
    // and left every later one, other users' included, charged (backtests/finish.ts cancelRun).
    const live = archivedToo ? '' : ` AND ${q('deleted_at')} IS NULL`;
    const update = `UPDATE ${q('users')} SET ${sets.join(', ')} WHERE ${q('id')} = ${Number(userId)}${live}${guard}`;
    const readNames = alongside?.read ?? [];
    let row: Record<string, unknown> | undefined;
    if (dialect === 'sqlite') {
      const returning = ['credits', ...readNames.map(column)].map(q).join(', ');
      const rows = await sequelize.query<Record<string, unknown>>(`${update} RETURNING ${returning}`, { type: QueryTypes.SELECT, transaction: t, raw: true });
      row = rows[0];
    } else {
      const changed = (await sequelize.query(update, { type: QueryTypes.BULKUPDATE, transaction: t })) as unknown as number;
      if (changed === 1) row = (await User.findByPk(userId, { attributes: ['credits', ...readNames], transaction: t, raw: true })) as unknown as Record<string, unknown> | undefined;
      if (row) row = { credits: row.credits, ...Object.fromEntries(readNames.map((name) => [column(name), row![name]])) };
    }
    if (!row) {
      // A locking read: on MySQL (REPEATABLE READ) a plain one reads the transaction's snapshot,
      // older than what the UPDATE just saw: a deletion committed meanwhile read as a live account
      // with its old balance ("1 crédit nécessaire, solde 34"), another spend's debit as credits
      // still there. The locking read sees the latest commit, as the UPDATE did.
      const user = await User.findByPk(userId, { attributes: ['credits', 'deletedAt'], transaction: t, lock: t.LOCK.SHARE });
      if (!user || user.deletedAt) throw new AccountGoneError(userId);
      throw new InsufficientCreditsError(-delta, user.credits);
    }
    const balance = Number(row.credits);
    const read = alongside ? Object.fromEntries(readNames.map((name) => [name, row![column(name)]])) : undefined;
    return { balance, read };
  }

  private async alreadyApplied(existing: CreditEntry, userId: number, transaction?: Transaction): Promise<LedgerResult> {
    if (existing.userId !== userId) {
      throw new LedgerError(`reference ${JSON.stringify(existing.reference)} already belongs to another user`);
    }
    return { entry: existing, applied: false, balance: await this.balance(userId, transaction) };
  }

  private findReference(kind: LedgerKind, reference: string, transaction?: Transaction) {
    return this.db.models.CreditEntry.findOne({ where: { kind, reference }, transaction });
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new LedgerError(`invalid amount: ${amount} (expected a positive integer)`);
}
