import { literal, type Transaction } from 'sequelize';
import type { OfferDefinition } from '@bt/core/catalogue';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { CreditEntry, Invoice, Payment, User } from '../db/models.js';
import type { Storage } from '../storage/types.js';
import { invoiceContent, type CreditNoteContent, type InvoiceContent } from './invoice-content.js';
import { BillingPdfs } from './billing-pdfs.js';
import type { SellerSettings } from './settings.js';

export interface InvoiceDeps {
  db: Database;
  storage: Storage;
  clock: Clock;
  seller: SellerSettings;
  log: (message: string) => void;
  /**
   * Draws a document's PDF: the server's engine threads (src/jobs/pool.ts), so that pdfkit's 20 to
   * 30 ms per document, and the half second of its first one, never hold the event loop; in-process
   * (renderInvoicePdf) when absent.
   */
  drawPdf?: (content: InvoiceContent | CreditNoteContent) => Promise<Uint8Array>;
}

export interface IssueInput {
  payment: Payment;
  user: User;
  offer: OfferDefinition;
  credits: number;
  totalCents: number;
  transactionId: string;
  periodEnd: Date | null;
}

/**
 * Numbered invoices, one per paid payment (docs/payments.md "Invoices"). The number comes from a
 * counter row incremented in the transaction that records the payment as paid: the increment
 * locks the row until commit (MySQL; SQLite runs one write transaction at a time), so numbers are
 * unique, and a rolled-back payment gives its number back, so there are no gaps. The PDF is drawn
 * after the commit and stored under `invoices/{year}/{label}.pdf`; a missing or short file is
 * drawn again from the row's frozen content.
 */
export class Invoices {
  private readonly pdfs: BillingPdfs<Invoice>;

  constructor(private readonly deps: InvoiceDeps) {
    this.pdfs = new BillingPdfs<Invoice>(deps, 'invoice', contentOf);
  }

  /** Inside the payment's transaction: the next number and the row. */
  async issue(input: IssueInput, t: Transaction): Promise<Invoice> {
    const { Invoice } = this.deps.db.models;
    const number = await nextBillingNumber(this.deps.db, 'invoice', t);
    const issuedAt = this.deps.clock.now();
    const content = invoiceContent({ ...input, number, issuedAt, seller: this.deps.seller });
    return Invoice.create(
      {
        number: content.number,
        label: content.label,
        paymentId: input.payment.id,
        userId: input.user.id,
        content: JSON.stringify(content),
        path: billingPath(issuedAt, content.label),
        issuedAt,
      },
      { transaction: t },
    );
  }

  /** Draws the PDF and stores it (after the commit); returns its bytes. */
  store(invoice: Invoice): Promise<Uint8Array> {
    return this.pdfs.store(invoice);
  }

  /** Stores it, and logs rather than fails: the download draws it again if it is missing. */
  storeQuietly(invoice: Invoice): Promise<void> {
    return this.pdfs.storeQuietly(invoice);
  }

  /** The stored PDF, drawn again when it is missing or incomplete. */
  pdf(invoice: Invoice): Promise<Uint8Array> {
    return this.pdfs.pdf(invoice);
  }

  /** A user's own invoice by number (null for another user's or an unknown number). */
  forUser(userId: number, number: number): Promise<Invoice | null> {
    return this.deps.db.models.Invoice.findOne({ where: { userId, number } });
  }

  listForUser(userId: number, limit = 100): Promise<Invoice[]> {
    return this.deps.db.models.Invoice.findAll({ where: { userId }, order: [['number', 'DESC']], limit });
  }

  /** The invoices of these payments, by payment id. */
  async byPayments(paymentIds: number[]): Promise<Map<number, Invoice>> {
    if (paymentIds.length === 0) return new Map();
    const rows = await this.deps.db.models.Invoice.findAll({ where: { paymentId: paymentIds } });
    return new Map(rows.map((row) => [row.paymentId, row]));
  }

  /** The invoices of purchase entries of the ledger (their meta names the payment), by entry id. */
  async forLedger(entries: CreditEntry[]): Promise<Map<number, Invoice>> {
    const byReference = new Map<string, number>();
    for (const entry of entries) {
      const reference = parseStoredObject<{ payment: string }>(entry.meta).payment;
      // The purchase's own row: a refund or dispute row names the same payment, and has no invoice.
      if (typeof reference === 'string' && entry.kind === 'grant' && (entry.reason === 'purchase' || entry.reason === 'subscription')) byReference.set(reference, entry.id);
    }
    if (byReference.size === 0) return new Map();
    const payments = await this.deps.db.models.Payment.findAll({ where: { reference: [...byReference.keys()] }, attributes: ['id', 'reference'] });
    const invoices = await this.byPayments(payments.map((p) => p.id));
    const result = new Map<number, Invoice>();
    for (const payment of payments) {
      const invoice = invoices.get(payment.id);
      if (invoice) result.set(byReference.get(payment.reference)!, invoice);
    }
    return result;
  }

  /** The admin's billing files (rel, name, bytes, mtime, docs/payments.md "Invoices"), newest first. */
  async adminList(options: { offset?: number; limit?: number } = {}) {
    const rows = await this.deps.db.models.Invoice.findAll({ order: [['number', 'DESC']], offset: options.offset ?? 0, limit: Math.min(options.limit ?? 100, 1000) });
    return rows.map((row) => {
      const content = contentOf(row);
      return {
        rel: row.path,
        name: row.path.split('/').pop()!,
        bytes: row.bytes,
        mtime: row.issuedAt.toISOString(),
        number: row.number,
        label: row.label,
        user_id: row.userId,
        amount_eur: content.total_cents / 100,
        method: content.method,
      };
    });
  }

  /** The admin's billing summary: how many invoices, how many bytes stored. */
  async adminInfo(): Promise<{ count: number; bytes: number }> {
    const { Invoice } = this.deps.db.models;
    const [count, bytes] = await Promise.all([Invoice.count(), Invoice.sum('bytes')]);
    return { count, bytes: Number(bytes) || 0 };
  }
}

/**
 * The next number of a billing series ('invoice', 'credit_note': rows of invoice_counters),
 * inside the caller's transaction: the counter's row stays locked until the commit, so numbers
 * have no gap and no repeat (docs/payments.md, "Invoices").
 */
export async function nextBillingNumber(db: Database, series: 'invoice' | 'credit_note', t: Transaction): Promise<number> {
  const { InvoiceCounter } = db.models;
  await InvoiceCounter.update({ value: literal('value + 1') as unknown as number }, { where: { name: series }, transaction: t });
  const counter = await InvoiceCounter.findByPk(series, { transaction: t });
  if (!counter) throw new Error(`billing counter ${series} missing (migrations 0004, 0016)`);
  return counter.value;
}

/** Where an invoice's or credit note's PDF is stored. */
export const billingPath = (issuedAt: Date, label: string) => `invoices/${issuedAt.getUTCFullYear()}/${label}.pdf`;

export function contentOf(invoice: Invoice): InvoiceContent {
  return parseStoredObject<InvoiceContent>(invoice.content) as InvoiceContent;
}
