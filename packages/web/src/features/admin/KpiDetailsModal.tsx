import type { RangeQuery } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { admin } from './client.js';
import { DetailsTable } from './DetailsTable.js';
import { failure, MSG } from './messages.js';
import { ErrorLine, Loading } from './ui.js';
import { useLoad } from './useLoad.js';

/** The rows behind one KPI of the overview, for the same range. */
export function KpiDetailsModal({ kpi, label, range, onClose }: { kpi: string; label: string; range: RangeQuery; onClose: () => void }) {
  const loaded = useLoad(() => admin.details(kpi, range), [kpi, JSON.stringify(range)]);
  return (
    <Modal title={`Détails : ${label}`} onClose={onClose} wide>
      {loaded.loading ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.detailsLoad)} /> : null}
      {loaded.data ? <DetailsTable answer={loaded.data} testId="kpi-details" /> : null}
    </Modal>
  );
}
