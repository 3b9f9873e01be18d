import { importFor } from '../app/optional-module.js';
import { FONT, loadPdfFonts, useUnicodeFonts } from '../pdf/fonts.js';
import { loadBidi, textLine } from '../pdf/rtl.js';
import type { CreditNoteContent, InvoiceContent } from './invoice-content.js';
import { printable } from './invoice-text.js';
import { euros } from './money.js';

const GRAPHEMES = new Intl.Segmenter('fr', { granularity: 'grapheme' });
const DATE = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');

/**
 * Draws an invoice in the PDFs' Unicode font (pdf/fonts.ts), so that a buyer's name prints in its
 * own letters whatever its script (docs/payments.md "Invoices"). The creation date is the issue
 * date, so drawing the same invoice again gives the same document. A credit note (docs/payments.md
 * "Credit notes") is drawn the same way: its title, the invoice it credits, the amounts negative
 * and the amount refunded.
 */
export async function renderInvoicePdf(content: InvoiceContent | CreditNoteContent): Promise<Buffer> {
  const credit = 'credit_note' in content ? content.credit_note : null;
  const title = credit ? `Facture d’avoir ${content.label}` : `Facture ${content.label}`;
  // A credit note's amounts are what goes back: printed negative.
  const signed = (cents: number) => euros(credit ? -cents : cents);
  // Loaded by the first invoice drawn, not at every start (app/optional-module.ts).
  const { default: PDFDocument } = await importFor('invoice PDFs', 'pdfkit', () => import('pdfkit'));
  const [fonts] = await Promise.all([loadPdfFonts(), loadBidi()]);
  return new Promise((resolve, reject) => {
    const issued = new Date(content.issued_at);
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: title, Author: content.seller.name, CreationDate: issued, ModDate: issued },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    useUnicodeFonts(doc, fonts);

    const { seller, buyer, line, vat } = content;
    doc.font(FONT.bold).fontSize(20).text(title);
    doc.font(FONT.regular).fontSize(10).text(`Date : ${DATE(content.issued_at)}`);
    if (credit) {
      doc.text(`Avoir sur la facture n° ${credit.invoice_label} du ${DATE(credit.invoice_issued_at)}`);
      doc.text(credit.reason === 'refund' ? 'Motif : remboursement' : 'Motif : contestation du paiement perdue');
    }
    doc.moveDown(1.2);

    // Each line of the two blocks on one line of the page, cut with … when too long: a long name
    // wrapped at its spaces could still start a line of its own ("… Total TTC : 0,00 €").
    const block = (title: string, lines: string[], x: number, y: number) => {
      doc.font(FONT.bold).fontSize(11).text(title, x, y);
      doc.font(FONT.regular).fontSize(10);
      lines.forEach((line, i) => textLine(doc, fit(line, 220), x, y + 16 + i * 12));
      return y + 16 + lines.length * 12;
    };
    const fit = (raw: string, width: number) => {
      const line = printable(raw, fonts);
      if (doc.widthOfString(line) <= width) return line;
      // Cut between graphemes: never half of an emoji's surrogate pair, nor a letter from its accent.
      const graphemes = Array.from(GRAPHEMES.segment(line), (g) => g.segment);
      while (graphemes.length > 1 && doc.widthOfString(`${graphemes.join('')}…`) > width) graphemes.pop();
      return `${graphemes.join('').trimEnd()}…`;
    };
    const top = doc.y;
    const sellerEnd = block('Vendeur', [seller.name, ...seller.address, ...(seller.email ? [seller.email] : []), ...(seller.registration ? [`SIRET : ${seller.registration}`] : []), ...(seller.vat_id ? [`TVA : ${seller.vat_id}`] : [])], 56, top);
    const buyerEnd = block('Client', [buyer.name, ...(buyer.email ? [buyer.email] : []), `Compte n° ${buyer.user_id}`], 320, top);
    doc.x = 56;
    doc.y = Math.max(sellerEnd, buyerEnd, top + 100);
    doc.moveDown(1);

    doc.font(FONT.bold).fontSize(11).text('Désignation', 56, doc.y, { continued: false });
    doc.font(FONT.regular).fontSize(10).text(`${line.description} (offre ${line.offer_id})`);
    if (line.period_end) doc.text(`Période payée jusqu’au ${DATE(line.period_end)}`);
    doc.moveDown(1);

    doc.text(`Total HT : ${signed(vat.base_cents)}`);
    doc.text(`TVA (${String(vat.rate_percent).replace('.', ',')} %) : ${signed(vat.vat_cents)}`);
    doc.font(FONT.bold).fontSize(12).text(`Total TTC : ${signed(content.total_cents)}`);
    if (credit) doc.text(`Montant remboursé : ${euros(content.total_cents)}`);
    doc.font(FONT.regular).fontSize(10);
    if (vat.note) doc.text(vat.note);
    doc.moveDown(1);

    doc.text(`Moyen de paiement : ${content.method_name}`);
    doc.text(`Référence du paiement : ${printable(content.provider_reference, fonts)}`);
    doc.text(`Référence bt : ${content.payment_reference}`);
    doc.text((credit ? 'Remboursé le ' : 'Payée le ') + DATE(content.issued_at) + '.');
    doc.end();
  });
}
