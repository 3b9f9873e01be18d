import type { Transaction } from 'sequelize';
import type { CreditNoteContent, InvoiceContent } from './invoice-content.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { InvoiceDeps } from './invoices.js';

/** A billing document's row (an invoice, a credit note): where its PDF is and how long it is. */
export interface BillingDocument {
  label: string;
  path: string;
  bytes: number | null;
  update(values: { bytes: number }, options: { transaction: Transaction }): Promise<unknown>;
}

/**
 * The PDFs of invoices and credit notes alike: drawn from the row's frozen content, stored after
 * the commit that wrote the row, drawn again at download when missing or incomplete
 * (docs/payments.md, "Invoices" and "Credit notes").
 */
export class BillingPdfs<Row extends BillingDocument> {
  constructor(
    private readonly deps: Pick<InvoiceDeps, 'db' | 'storage' | 'log' | 'drawPdf'>,
    /** What the log calls it ('invoice', 'credit note'). */
    private readonly kind: string,
    private readonly contentOf: (row: Row) => InvoiceContent | CreditNoteContent,
  ) {}

  /** Draws the PDF and stores it; returns its bytes. */
  async store(row: Row): Promise<Uint8Array> {
    const pdf = await (this.deps.drawPdf ?? renderInvoicePdf)(this.contentOf(row));
    await this.deps.storage.write(row.path, pdf);
    if (row.bytes !== pdf.byteLength) await this.deps.db.transaction((t) => row.update({ bytes: pdf.byteLength }, { transaction: t }));
    return pdf;
  }

  /** Stores it, and logs rather than fails: the download draws it again if it is missing. */
  async storeQuietly(row: Row): Promise<void> {
    try {
      await this.store(row);
    } catch (err) {
      this.deps.log(`payments: ${this.kind} ${row.label} not stored yet: ${(err as Error).message}`);
    }
  }

  /** The stored PDF, drawn again when it is missing or incomplete. */
  async pdf(row: Row): Promise<Uint8Array> {
    if (row.bytes !== null) {
      try {
        const bytes = await this.deps.storage.read(row.path);
        if (bytes.byteLength === row.bytes) return bytes;
      } catch {
        // missing: drawn again below
      }
    }
    return this.store(row);
  }
}
