/** The pins a row of the results modal offers (docs/product.md §2.2 "pin a metric row"), as plain logic. */
import { typeOfSheet, type NewPin } from './pin.js';
import { LABELS } from '@bt/core/format';
import { fieldNumber as numeric } from '../../api/fields.js';
import type { SheetRowContext } from '../../pages/stats/SheetsModal.js';

/** Sheets whose rows can be pinned. */
export const PINNABLE_SHEETS = ['Global', 'TP2_Global', 'Sessions', 'Par_Heure', 'Jour_Semaine'] as const;

/** What the modal tells about a row. */
export type RowContext = SheetRowContext;

const BUCKET_COLUMN = /^(session|heures?\b|hour|jour|day)/i;


/** The pins a row offers: one per numeric metric (bucket sheets) or the row's value (metric sheets). */
export function rowPins(context: RowContext): NewPin[] {
  const type = typeOfSheet(context.sheet);
  if (!type || !context.folder) return [];
  const { row, headers } = context;
  if (type === 'global' || type === 'tp2-global') {
    const key = String(row[0] ?? '').trim();
    const value = numeric(row[1]);
    return key && value !== null ? [{ folder: context.folder, type, key, bucket: null, value }] : [];
  }
  // A bucket without a trade has nothing worth pinning (its rates are empty, its counts 0).
  const tradesIndex = headers.findIndex((h) => h.trim() === LABELS.trades);
  if (tradesIndex >= 0 && !numeric(row[tradesIndex])) return [];
  const bucketIndex = headers.findIndex((h) => BUCKET_COLUMN.test(h.trim()));
  const raw = row[bucketIndex < 0 ? 0 : bucketIndex];
  const bucket = raw == null ? '' : String(raw).trim();
  if (!bucket) return [];
  const pins: NewPin[] = [];
  headers.forEach((header, index) => {
    const value = numeric(row[index]);
    if (value === null || BUCKET_COLUMN.test(header.trim()) || header.trim() === LABELS.goldenRank) return;
    const pin: NewPin = { folder: context.folder!, type, key: header.trim(), bucket, value };
    if (type === 'per-hour') pin.tz = context.tzOffset ?? 0;
    pins.push(pin);
  });
  return pins;
}

