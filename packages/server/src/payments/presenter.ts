import { OFFERS } from '@bt/core/catalogue';
import type { Invoice, Payment } from '../db/models.js';
import { PAY_MSG } from './messages.js';

/** Where a user downloads an invoice (key header, or `?token=` on the link). */
export const invoicePath = (number: number) => `/api/profile/invoices/${number}`;

export function presentInvoiceLink(invoice: Invoice) {
  return { number: invoice.number, label: invoice.label, url: invoicePath(invoice.number), issued_at: invoice.issuedAt.toISOString() };
}

/** A payment as its owner sees it (status page after a return, profile). */
export function presentPayment(payment: Payment, invoice: Invoice | null) {
  const offer = OFFERS.find((o) => o.id === payment.offerId);
  return {
    reference: payment.reference,
    method: payment.provider,
    kind: payment.kind,
    status: payment.status,
    offer_id: payment.offerId,
    label: offer?.label ?? payment.offerId,
    amount_eur: payment.amountExpectedCents === null ? null : payment.amountExpectedCents / 100,
    credits: payment.credits,
    created_at: payment.createdAt.toISOString(),
    paid_at: payment.paidAt ? payment.paidAt.toISOString() : null,
    period_end: payment.periodEnd ? payment.periodEnd.toISOString() : null,
    failure_kind: payment.failureKind,
    message:
      payment.status === 'paid'
        ? PAY_MSG.confirmed(payment.credits ?? 0)
        : payment.status === 'created'
          ? PAY_MSG.pending
          : payment.status === 'cancelled'
            ? PAY_MSG.cancelled
            : (payment.failureDetail ?? PAY_MSG.pending),
    invoice: invoice ? presentInvoiceLink(invoice) : null,
  };
}
