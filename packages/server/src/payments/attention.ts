import { Op, type Transaction, type WhereOptions } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { PaymentAttentionItem } from '../db/models.js';

/**
 * Payment situations that need the operator (docs/payments.md "Situations for the admin"): each
 * kind is money to give back or a decision to take. Each is still logged; the row is what lasts
 * (the logs are kept 30 to 90 days) and what the admin lists and closes (docs/admin.md).
 */
export const ATTENTION_KINDS = {
  account_deleted: 'Paiement reçu pour un compte supprimé : à rembourser.',
  paid_twice: 'Paiement reçu deux fois (la seconde transaction n’a rien crédité) : à rembourser.',
  days_paid_twice: 'Abonnement par carte payé sur une période déjà payée : jours payés deux fois, à rembourser ou à prolonger.',
  capture_pending: 'Capture PayPal en attente : à régler à la main si PayPal ne la confirme ni ne la refuse.',
  capture_denied_after_paid: 'Capture PayPal refusée alors que le paiement est crédité : à vérifier (crédits à reprendre ?).',
  reversal_before_payment: 'Remboursement ou litige notifié avant la confirmation du paiement : si le paiement est crédité sans que la notification revienne, reprendre les crédits.',
  dispute_won_after_reversal: 'Litige PayPal gagné après l’annulation de la capture : les crédits restent repris, à rendre si l’argent est revenu.',
  stripe_subscription_left: 'Abonnement Stripe à arrêter dans le tableau de bord Stripe : la carte continuerait d’être débitée.',
} as const;

export type AttentionKind = keyof typeof ATTENTION_KINDS;
export type AttentionStatus = 'open' | 'resolved' | 'all';
export const ATTENTION_STATUSES: readonly AttentionStatus[] = ['open', 'resolved', 'all'];

export interface AttentionInput {
  kind: AttentionKind;
  provider: string;
  /** The provider's id of the fact: with kind and provider, what makes a replay the same item. */
  reference: string;
  paymentId?: number | null;
  userId?: number | null;
  amountCents?: number | null;
  currency?: string | null;
  /** The English sentence the log writes. */
  message: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function presentAttention(row: PaymentAttentionItem, paymentReference: string | null) {
  return {
    id: row.id,
    kind: row.kind,
    label: ATTENTION_KINDS[row.kind as AttentionKind] ?? row.kind,
    provider: row.provider,
    provider_reference: row.reference,
    payment_id: row.paymentId,
    payment_reference: paymentReference,
    user_id: row.userId,
    amount_cents: row.amountCents,
    currency: row.currency,
    message: row.message,
    created_at: row.createdAt.toISOString(),
    resolved_at: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    resolved_by: row.resolvedBy,
    note: row.note,
  };
}

export class PaymentAttention {
  constructor(private readonly deps: { db: Database; clock: Clock; log: (message: string) => void }) {}

  /**
   * Records the item, once per fact: INSERT IGNORE / INSERT OR IGNORE on (kind, provider,
   * reference), so a replay or concurrent copies add nothing. In the caller's transaction when
   * the fact is a state change (it lands with it); otherwise on its own, where a failure is logged
   * and never breaks the callback (the log line is still there).
   */
  async record(input: AttentionInput, transaction?: Transaction): Promise<void> {
    const row = {
      kind: input.kind,
      provider: clip(input.provider, 16),
      reference: clip(input.reference, 191),
      paymentId: input.paymentId ?? null,
      userId: input.userId ?? null,
      amountCents: input.amountCents ?? null,
      currency: input.currency ? clip(input.currency, 16) : null,
      message: clip(input.message, 500),
      createdAt: this.deps.clock.now(),
    };
    const insert = (t: Transaction) => this.deps.db.models.PaymentAttention.bulkCreate([row], { ignoreDuplicates: true, transaction: t });
    if (transaction) {
      await insert(transaction);
      return;
    }
    try {
      await this.deps.db.transaction(insert);
    } catch (err) {
      this.deps.log(`payments: attention item ${input.kind} ${input.reference.slice(0, 64)} not recorded: ${(err as Error).message}`);
    }
  }

  /**
   * Closes the open items of a kind for a payment that the provider settled itself (a pending
   * capture completed or denied, a refund notice applied at last): no admin, a note says how.
   */
  async settle(kind: AttentionKind, paymentId: number, note: string, transaction: Transaction): Promise<void> {
    await this.deps.db.models.PaymentAttention.update(
      { resolvedAt: this.deps.clock.now(), resolvedBy: null, note },
      { where: { kind, paymentId, resolvedAt: null }, transaction },
    );
  }

  async list(status: AttentionStatus, page: { limit: number; offset: number }) {
    const { PaymentAttention: Items, Payment } = this.deps.db.models;
    const where: WhereOptions = status === 'open' ? { resolvedAt: null } : status === 'resolved' ? { resolvedAt: { [Op.ne]: null } } : {};
    const [rows, total, open] = await Promise.all([
      Items.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset }),
      Items.count({ where }),
      Items.count({ where: { resolvedAt: null } }),
    ]);
    const ids = [...new Set(rows.map((r) => r.paymentId).filter((id): id is number => id !== null))];
    const payments = ids.length ? await Payment.findAll({ where: { id: ids }, attributes: ['id', 'reference'] }) : [];
    const references = new Map(payments.map((p) => [p.id, p.reference]));
    return { items: rows.map((r) => presentAttention(r, r.paymentId === null ? null : references.get(r.paymentId) ?? null)), total, open, status, limit: page.limit, offset: page.offset };
  }

  /**
   * Closes one item. 'unknown' and 'already' let the route answer 404 and 409; the guarded UPDATE
   * (WHERE resolved_at IS NULL) makes two admins closing it at once close it once.
   */
  async resolve(id: number, adminId: number, note: string | null): Promise<{ item: PaymentAttentionItem } | 'unknown' | 'already'> {
    const { PaymentAttention: Items } = this.deps.db.models;
    const [changed] = await this.deps.db.transaction((t) =>
      Items.update({ resolvedAt: this.deps.clock.now(), resolvedBy: adminId, note }, { where: { id, resolvedAt: null }, transaction: t }),
    );
    const row = await Items.findByPk(id);
    if (!row) return 'unknown';
    if (changed !== 1) return 'already';
    return { item: row };
  }

  async referenceOf(paymentId: number | null): Promise<string | null> {
    if (paymentId === null) return null;
    return (await this.deps.db.models.Payment.findByPk(paymentId, { attributes: ['reference'] }))?.reference ?? null;
  }
}
