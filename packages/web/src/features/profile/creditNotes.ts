/**
 * The account's credit notes (factures d'avoir) on the profile, read from `GET /api/profile/invoices`
 * `credit_notes` (docs/api.md, docs/payments.md "Credit notes"; shown as docs/web.md "Comparator, CSV shop and profile" says).
 * The answer is untrusted: an absent or malformed field is no note, a malformed item is skipped.
 */
import { fieldString as str } from '../../api/fields.js';
import { formatDate, formatEuros } from './profile.js';

export interface CreditNoteRow {
  key: string;
  /** 'AV-000001'. */
  label: string;
  /** The API path of its PDF, always `/api/profile/invoices/credit-notes/{number}`. */
  path: string;
  /** The invoice it credits ('BT-000042'); this, the amount and the date are '' when not given. */
  invoiceLabel: string;
  amount: string;
  date: string;
}

/**
 * Only our own download route is followed: the link carries the key as `?token=`, so a path
 * elsewhere (another host, another route) is never linked (docs/web.md "Comparator, CSV shop and profile").
 */
const CREDIT_NOTE_PATH = /^\/api\/profile\/invoices\/credit-notes\/\d{1,9}$/;

function dateOf(value: unknown): string {
  return typeof value === 'string' && !Number.isNaN(new Date(value).getTime()) ? formatDate(value) : '';
}

/** The `credit_notes` of an invoices answer, newest first as given; [] for an older server or a malformed answer. */
export function creditNoteRows(answer: unknown): CreditNoteRow[] {
  const list = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).credit_notes : null;
  if (!Array.isArray(list)) return [];
  const rows: CreditNoteRow[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const note = item as Record<string, unknown>;
    const path = str(note.url);
    const label = str(note.label);
    if (!CREDIT_NOTE_PATH.test(path) || !label || seen.has(path)) continue;
    seen.add(path);
    rows.push({
      key: path,
      label,
      path,
      invoiceLabel: str(note.invoice_label),
      amount: formatEuros(note.amount_eur) ?? '',
      date: dateOf(note.issued_at),
    });
  }
  return rows;
}

/** What follows the note's link ('Avoir AV-000001'): 'sur la facture BT-000042 — 7,00 € — 15/01/2026'. */
export function creditNoteDetail(row: CreditNoteRow): string {
  return [row.invoiceLabel ? `sur la facture ${row.invoiceLabel}` : null, row.amount, row.date].filter(Boolean).join(' — ');
}

/** A row as the card reads it: 'Avoir AV-000001 — sur la facture BT-000042 — 7,00 € — 15/01/2026'. */
export function creditNoteText(row: CreditNoteRow): string {
  const detail = creditNoteDetail(row);
  return detail ? `Avoir ${row.label} — ${detail}` : `Avoir ${row.label}`;
}
