/**
 * "Pin a metric row" inside the results overlay (docs/product.md §2.2): a pin button on each row of a
 * metric sheet (Global, TP2_Global), and on bucket sheets (Sessions, Par_Heure, Jour_Semaine) a
 * picker of the row's numeric columns, since one row holds many metrics there.
 */
import { pinId } from './pin.js';
import { PINNABLE_SHEETS, rowPins } from './rowPins.js';
import { pinStore, usePins } from './browserPins.js';
import { formatCellFr } from '@bt/core/format';
import { Pin, PinOff } from 'lucide-react';
import type { SheetRowContext } from '../../pages/stats/SheetsModal.js';
import './pins.css';

/** The trailing cell of a pinnable row. */
export function PinRowAction({ context }: { context: SheetRowContext }) {
  const pins = usePins();
  const offers = rowPins(context);
  if (offers.length === 0) return null;
  const pinned = new Set(pins.map((p) => p.id));
  if (offers.length === 1) {
    const offer = offers[0];
    const active = pinned.has(pinId(offer));
    return (
      <button
        type="button"
        className={`pin-button${active ? ' active' : ''}`}
        aria-pressed={active}
        aria-label={active ? `Retirer l’épingle ${offer.key}` : `Épingler ${offer.key}`}
        title={active ? 'Retirer l’épingle' : 'Épingler cette métrique'}
        onClick={() => pinStore.toggle(offer)}
        data-testid="pin-row"
      >
        {active ? <PinOff size={14} aria-hidden /> : <Pin size={14} aria-hidden />}
      </button>
    );
  }
  return (
    <select
      className="pin-select"
      value=""
      aria-label={`Épingler une métrique (${context.bucketLabel ?? offers[0].bucket})`}
      title="Épingler une métrique de cette ligne"
      onChange={(event) => {
        const offer = offers[Number(event.target.value)];
        if (offer) pinStore.pin(offer);
      }}
      data-testid="pin-row-select"
    >
      <option value="">Épingler</option>
      {offers.map((offer, index) => (
        <option key={offer.key} value={index}>
          {offer.key} : {formatCellFr(offer.value, offer.key)}
          {pinned.has(pinId(offer)) ? ' (épinglée)' : ''}
        </option>
      ))}
    </select>
  );
}

/** The SheetsModal rowAction that offers pins. */
export const PIN_ROW_ACTION = {
  sheets: PINNABLE_SHEETS,
  render: (context: SheetRowContext) => <PinRowAction context={context} />,
} as const;
