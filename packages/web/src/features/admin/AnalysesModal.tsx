/** 'Analyses avancées': every breakdown of the range, with its own range buttons. */
import { useState } from 'react';
import { BREAKDOWN_KINDS, type BreakdownItem, type BreakdownKind } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { BreakdownChart } from './Charts.js';
import { admin } from './client.js';
import { failure, MSG } from './messages.js';
import { rangeQuery, type RangeState } from './range.js';
import { RangeBar } from './RangeBar.js';
import { ErrorLine, Loading } from './ui.js';
import { useLoad } from './useLoad.js';

const CHART_KINDS = BREAKDOWN_KINDS.filter((k) => k !== 'heatmap');

export function AnalysesModal({ initial, onClose }: { initial: RangeState; onClose: () => void }) {
  const [range, setRange] = useState(initial);
  const query = rangeQuery(range);
  const key = JSON.stringify(query);
  const loaded = useLoad(async () => {
    const answers = await Promise.all(CHART_KINDS.map((kind) => admin.breakdown(kind, query)));
    return new Map<BreakdownKind, BreakdownItem[]>(answers.map((a, i) => [CHART_KINDS[i], Array.isArray(a.items) ? a.items : []]));
  }, [key]);
  return (
    <Modal title="Analyses avancées" onClose={onClose} wide className="admin-analyses">
      <RangeBar value={range} onChange={setRange} testId="analyses-range" />
      {loaded.loading ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.dataLoad)} /> : null}
      {loaded.data ? (
        <div className="admin-charts" data-testid="analyses-charts">
          {CHART_KINDS.map((kind) => (
            <BreakdownChart key={kind} kind={kind} items={loaded.data!.get(kind) ?? []} />
          ))}
        </div>
      ) : null}
    </Modal>
  );
}
