import { OFFERS, isSubscriber } from '@bt/core/catalogue';
import type { CreditEntry, Invoice, User } from '../db/models.js';
import { parseStoredObject } from '../db/json.js';
import { presentInvoiceLink } from '../payments/presenter.js';

/** The plan a user has now: a subscription past its renewal date without renewal is over. */
export function effectivePlan(user: User, now: Date): string {
  if (!isSubscriber(user.plan)) return 'free';
  if (user.subscriptionRenewDate && user.subscriptionRenewDate.getTime() <= now.getTime()) return 'free';
  return user.plan;
}

/** Pro's backtest priority, for the job queue: recorded on the user, in force while the plan is. */
export function hasBacktestPriority(user: User, now: Date): boolean {
  return user.backtestPriority && effectivePlan(user, now) === 'SUB_25';
}

export const REASON_LABELS: Record<string, string> = {
  verification: 'Crédits offerts (adresse e-mail vérifiée)',
  admin: 'Ajustement par un administrateur',
  purchase: 'Achat de crédits',
  subscription: 'Crédits d’abonnement',
  bonus: 'Crédits bonus',
  backtest: 'Backtest',
  csvDownload: 'Téléchargement CSV',
  extraction: 'Extraction de données',
  payment_refund: 'Paiement remboursé : crédits repris',
  payment_dispute: 'Paiement contesté : crédits repris',
  dispute_won: 'Contestation gagnée : crédits rendus',
};

const REVERSAL_REASONS = new Set(['payment_refund', 'payment_dispute', 'dispute_won']);

/**
 * One ledger row as the profile's purchase history shows it (docs/api.md, GET /api/me); a purchase also says
 * how it was paid and links its invoice.
 */
export function presentHistoryEntry(entry: CreditEntry, invoice?: Invoice) {
  const meta = parseStoredObject<Record<string, unknown>>(entry.meta);
  const offerId = typeof meta.offer_id === 'string' ? meta.offer_id : null;
  const offer = offerId ? OFFERS.find((o) => o.id === offerId) : undefined;
  // A refunded or disputed payment names its reason first, then the offer it had bought.
  const reversal = REVERSAL_REASONS.has(entry.reason);
  const base = reversal ? `${REASON_LABELS[entry.reason]}${offer ? ` (${offer.label})` : ''}` : (offer?.label ?? REASON_LABELS[entry.reason] ?? entry.reason);
  return {
    id: entry.id,
    type: entry.kind === 'refund' ? 'refund' : entry.reason,
    offer_id: offerId,
    label: entry.kind === 'refund' ? `Remboursement : ${base}` : base,
    date: entry.createdAt.toISOString(),
    amount: typeof meta.amount_eur === 'number' ? meta.amount_eur : null,
    credits: entry.amount,
    balance_after: entry.balanceAfter,
    txid: entry.reference,
    ...(typeof meta.method === 'string' ? { method: meta.method } : {}),
    ...(invoice ? { invoice: presentInvoiceLink(invoice) } : {}),
  };
}

/**
 * What GET /api/me answers: every user field of docs/product.md §1.3 and docs/product.md §2.3 ("Profile/user"), and
 * nothing else (no hashes, no internal dates).
 */
/**
 * `signupCreditsPending`: the sign-up credits are still to come with the address's verification
 * (never granted to this account; an account that changed its verified address got them already).
 */
export function presentUser(user: User, history: CreditEntry[], now: Date, invoices: Map<number, Invoice> = new Map(), signupCreditsPending = false) {
  const plan = effectivePlan(user, now);
  const name = `${user.firstName} ${user.lastName}`.trim();
  const subscribed = plan !== 'free';
  return {
    id: user.id,
    username: user.username,
    name,
    full_name: name,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    role: user.role,
    is_admin: user.role === 'admin',
    plan,
    credits: user.credits,
    has_discount: isSubscriber(plan),
    email_verified: user.emailVerified,
    signup_credits_pending: signupCreditsPending,
    has_password: !!user.passwordHash,
    subscription: {
      plan,
      renew_date: subscribed && user.subscriptionRenewDate ? user.subscriptionRenewDate.toISOString() : null,
      auto_renew: subscribed && user.subscriptionAutoRenew,
      provider: subscribed ? user.subscriptionProvider : null,
      backtest_priority: hasBacktestPriority(user, now),
    },
    purchase_history: history.map((entry) => presentHistoryEntry(entry, invoices.get(entry.id))),
    created_at: user.createdAt.toISOString(),
  };
}
