/**
 * The results overlay of one of the user's backtests (docs/product.md §2.2: dashboard "Voir résultats", a
 * pin's Détails): the statistics modal of the backtest screen over the user's workbook calls,
 * with "pin this metric" on the pinnable sheets.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { calls } from '../../runtime.js';
import { SheetsModal } from '../../pages/stats/SheetsModal.js';
import { RESULT_SHEETS } from '../../pages/stats/sheets.js';
import { PIN_ROW_ACTION } from './PinRowAction.js';

/** The modal's sheet limit (docs/product.md §2.9: 500 in the modal). */
const MODAL_SHEET_LIMIT = 500;
const loadMeta = (folder: string) => calls.userSheetMeta(folder);
const loadSheet = (folder: string, sheet: string) => calls.userSheet(folder, sheet, 0, MODAL_SHEET_LIMIT);
const ResultView = lazy(() => import('../results/ResultView.js'));

export function ResultsOverlay({
  folder,
  title,
  initialSheet,
  footer,
  onClose,
  withResultView = false,
}: {
  folder: string | null;
  title?: ReactNode;
  initialSheet?: string;
  footer?: ReactNode;
  onClose: () => void;
  /** The result view (card, equity curve, price chart, trades) above the sheet tabs: the dashboard and the pins. */
  withResultView?: boolean;
}) {
  return (
    <SheetsModal
      header={
        withResultView && folder ? (
          <Suspense fallback={<p className="muted">Chargement des résultats…</p>}>
            <ResultView folder={folder} />
          </Suspense>
        ) : undefined
      }
      title={title ?? 'Résultats du backtest'}
      folder={folder}
      loadMeta={loadMeta}
      loadSheet={loadSheet}
      allowed={RESULT_SHEETS}
      onClose={onClose}
      footer={footer}
      rowAction={PIN_ROW_ACTION}
      initialSheet={initialSheet}
    />
  );
}
