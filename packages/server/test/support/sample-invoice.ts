import type { InvoiceContent } from '../../src/payments/invoice-content.js';

/** An invoice's content as billing-pdfs.ts hands it to renderInvoicePdf, for the PDF tests; `changes` overrides fields. */
export function sampleInvoice(changes: Partial<InvoiceContent> = {}): InvoiceContent {
  return {
    number: 1,
    label: 'BT-000001',
    issued_at: '2026-01-15T10:00:00.000Z',
    seller: { name: 'bt SAS', address: ['12 rue des Bougies', '75002 Paris'], email: 'factures@bt.test', vat_id: 'FR00123456789', registration: '123 456 789 00012' },
    buyer: { name: 'Camille Durand', email: 'camille@example.com', user_id: 7 },
    line: { offer_id: 'CREDIT_10', description: 'Pack 12 crédits : 12 crédits', credits: 12, period_end: null },
    total_cents: 1000,
    currency: 'EUR',
    vat: { rate_percent: 20, base_cents: 833, vat_cents: 167, note: null },
    method: 'stripe',
    method_name: 'Carte bancaire (Stripe)',
    provider_reference: 'pi_f7ee68b4c5b6a0ab4130192f',
    payment_reference: 'pay_Rlp2ZX7kb2q-onBo',
    ...changes,
  };
}
