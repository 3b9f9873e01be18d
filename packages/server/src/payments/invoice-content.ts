import type { Payment, User } from '../db/models.js';
import type { OfferDefinition } from '@bt/core/catalogue';
import type { SellerSettings } from './settings.js';

export const METHOD_NAMES: Record<string, string> = {
  stripe: 'Carte bancaire (Stripe)',
  paypal: 'PayPal',
  crypto: 'Crypto-monnaie (NOWPayments)',
};

/** Everything an invoice prints, frozen when it is issued (the PDF can be drawn again from it). */
export interface InvoiceContent {
  number: number;
  label: string;
  issued_at: string;
  seller: { name: string; address: string[]; email: string | null; vat_id: string | null; registration: string | null };
  buyer: { name: string; email: string | null; user_id: number };
  line: { offer_id: string; description: string; credits: number; period_end: string | null };
  total_cents: number;
  currency: 'EUR';
  vat: { rate_percent: number; base_cents: number; vat_cents: number; note: string | null };
  method: string;
  method_name: string;
  provider_reference: string;
  payment_reference: string;
}

export function invoiceLabel(prefix: string, number: number): string {
  return `${prefix}${String(number).padStart(6, '0')}`;
}

/** Prices include VAT: the base is the total divided by 1 + rate, the VAT what remains. */
export function splitVat(totalCents: number, ratePercent: number): { base: number; vat: number } {
  const base = Math.round(totalCents / (1 + ratePercent / 100));
  return { base, vat: totalCents - base };
}

export function invoiceContent(input: {
  number: number;
  issuedAt: Date;
  seller: SellerSettings;
  user: User;
  payment: Payment;
  offer: OfferDefinition;
  credits: number;
  totalCents: number;
  transactionId: string;
  periodEnd: Date | null;
}): InvoiceContent {
  const { seller, user, payment, offer } = input;
  const { base, vat } = splitVat(input.totalCents, seller.vatRatePercent);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username || `Utilisateur ${user.id}`;
  const description =
    offer.kind === 'subscription'
      ? `Abonnement ${offer.label} : ${offer.periodDays} jours, ${input.credits} crédits`
      : `${offer.label} : ${input.credits} crédits`;
  return {
    number: input.number,
    label: invoiceLabel(seller.invoicePrefix, input.number),
    issued_at: input.issuedAt.toISOString(),
    seller: { name: seller.name, address: seller.address, email: seller.email, vat_id: seller.vatId, registration: seller.registration },
    buyer: { name, email: user.email, user_id: user.id },
    line: { offer_id: offer.id, description, credits: input.credits, period_end: input.periodEnd ? input.periodEnd.toISOString() : null },
    total_cents: input.totalCents,
    currency: 'EUR',
    vat: { rate_percent: seller.vatRatePercent, base_cents: base, vat_cents: vat, note: seller.vatNote },
    method: payment.provider,
    method_name: METHOD_NAMES[payment.provider] ?? payment.provider,
    provider_reference: input.transactionId,
    payment_reference: payment.reference,
  };
}

/**
 * A credit note (facture d'avoir, docs/payments.md "Credit notes"): the invoice's content, seller,
 * buyer, line, method and VAT rate as the invoice printed them, with its own number and date, the
 * invoice it credits and the amount refunded by this share (TTC, split at the invoice's rate).
 */
export interface CreditNoteContent extends InvoiceContent {
  credit_note: { invoice_number: number; invoice_label: string; invoice_issued_at: string; reason: 'refund' | 'dispute' };
}

export function creditNoteLabel(number: number): string {
  return invoiceLabel('AV-', number);
}

export function creditNoteContent(invoice: InvoiceContent, input: { number: number; issuedAt: Date; amountCents: number; reason: 'refund' | 'dispute' }): CreditNoteContent {
  const { base, vat } = splitVat(input.amountCents, invoice.vat.rate_percent);
  return {
    ...invoice,
    number: input.number,
    label: creditNoteLabel(input.number),
    issued_at: input.issuedAt.toISOString(),
    total_cents: input.amountCents,
    vat: { ...invoice.vat, base_cents: base, vat_cents: vat },
    credit_note: { invoice_number: invoice.number, invoice_label: invoice.label, invoice_issued_at: invoice.issued_at, reason: input.reason },
  };
}
