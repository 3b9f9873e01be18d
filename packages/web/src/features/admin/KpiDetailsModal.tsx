import type { RangeQuery } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { admin } from './client.js';
import { PagedDetails } from './DetailsTable.js';
import { DETAILS_PAGES } from './rules.js';

/** The rows behind one KPI of the overview, for the same range, a page at a time. */
export function KpiDetailsModal({ kpi, label, range, onClose }: { kpi: string; label: string; range: RangeQuery; onClose: () => void }) {
  return (
    <Modal title={`Détails : ${label}`} onClose={onClose} wide>
      <PagedDetails load={(limit, offset) => admin.details(kpi, range, { limit, offset })} deps={[kpi, JSON.stringify(range)]} sizes={DETAILS_PAGES} testId="kpi-details" />
    </Modal>
  );
}
