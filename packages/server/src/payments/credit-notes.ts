import type { Transaction } from 'sequelize';
import { parseStoredObject } from '../db/json.js';
import type { CreditNote, Payment } from '../db/models.js';
import { creditNoteContent, type CreditNoteContent } from './invoice-content.js';
import { BillingPdfs } from './billing-pdfs.js';
import { billingPath, contentOf, nextBillingNumber, type InvoiceDeps } from './invoices.js';

/** Where a user downloads a credit note (key header, or `?token=` on the link). */
export const creditNotePath = (number: number) => `/api/profile/invoices/credit-notes/${number}`;

export function presentCreditNoteLink(note: CreditNote) {
  const content = creditNoteOf(note);
  return {
    number: note.number,
    label: note.label,
    url: creditNotePath(note.number),
    issued_at: note.issuedAt.toISOString(),
    invoice_label: content.credit_note.invoice_label,
    amount_eur: note.amountCents / 100,
  };
}

/**
 * Credit notes (factures d'avoir, docs/payments.md "Credit notes"): when the money of an invoiced
 * payment goes back to the buyer (a refund, a dispute lost), a note for that share, numbered by
 * its own counter row (`credit_note`) in the reversal's transaction, after the ledger (lock order
 * payment row → user balance → ledger → counter → note). The payment row's lock serialises the
 * notices of one payment; what is owed is the money credited in all minus the notes already
 * issued, so a replay issues nothing, and the unique (payment, credited_cents) refuses a second
 * note for the same state. The PDF is drawn after the commit, like an invoice's.
 */
export class CreditNotes {
  private readonly pdfs: BillingPdfs<CreditNote>;

  constructor(private readonly deps: InvoiceDeps) {
    this.pdfs = new BillingPdfs<CreditNote>(deps, 'credit note', creditNoteOf);
  }

  /** Inside the reversal's transaction, the payment row locked: the note for what `creditedCents` adds, if anything. */
  async issue(input: { payment: Payment; creditedCents: number; reason: 'refund' | 'dispute'; ledgerReference: string | null }, t: Transaction): Promise<CreditNote | null> {
    const { Invoice, CreditNote: Notes } = this.deps.db.models;
    const invoice = await Invoice.findOne({ where: { paymentId: input.payment.id }, transaction: t });
    if (!invoice) return null;
    const invoiced = contentOf(invoice);
    const target = Math.min(input.creditedCents, invoiced.total_cents);
    const before = Number(await Notes.sum('amountCents', { where: { paymentId: input.payment.id }, transaction: t })) || 0;
    if (target <= before) return null;
    const number = await nextBillingNumber(this.deps.db, 'credit_note', t);
    const issuedAt = this.deps.clock.now();
    const content = creditNoteContent(invoiced, { number, issuedAt, amountCents: target - before, reason: input.reason });
    return Notes.create(
      {
        number: content.number,
        label: content.label,
        invoiceId: invoice.id,
        paymentId: input.payment.id,
        userId: invoice.userId,
        amountCents: content.total_cents,
        creditedCents: target,
        currency: content.currency,
        ledgerReference: input.ledgerReference,
        content: JSON.stringify(content),
        path: billingPath(issuedAt, content.label),
        issuedAt,
      },
      { transaction: t },
    );
  }

  /** Draws the PDF and stores it (after the commit); returns its bytes. */
  store(note: CreditNote): Promise<Uint8Array> {
    return this.pdfs.store(note);
  }

  /** Stores it, and logs rather than fails: the download draws it again if it is missing. */
  storeQuietly(note: CreditNote): Promise<void> {
    return this.pdfs.storeQuietly(note);
  }

  /** The stored PDF, drawn again when it is missing or incomplete. */
  pdf(note: CreditNote): Promise<Uint8Array> {
    return this.pdfs.pdf(note);
  }

  /** A user's own credit note by number (null for another user's or an unknown number). */
  forUser(userId: number, number: number): Promise<CreditNote | null> {
    return this.deps.db.models.CreditNote.findOne({ where: { userId, number } });
  }

  listForUser(userId: number, limit = 100): Promise<CreditNote[]> {
    return this.deps.db.models.CreditNote.findAll({ where: { userId }, order: [['number', 'DESC']], limit });
  }
}

export function creditNoteOf(note: CreditNote): CreditNoteContent {
  return parseStoredObject<CreditNoteContent>(note.content) as CreditNoteContent;
}
