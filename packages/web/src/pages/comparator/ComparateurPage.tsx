import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import {
  MAX_COMPARED,
  analysisDetails,
  isSelectionDisabled,
  preselectedIds,
  readAnalyses,
  searchAnalyses,
  toggleSelection,
  type Analysis,
} from '../../features/compare/analyses.js';
import {
  CHART_TYPES,
  DEFAULT_METRIC,
  METRICS,
  formatValue,
  hasValues,
  metricLabel,
  readCompareAnswer,
  tableScrolls,
  type ChartType,
  type CompareChartModel,
  type Metric,
} from '../../features/compare/chartModel.js';
import { work } from '../../runtime.js';
import './comparator.css';
import { ScrollX } from '../../components/ScrollX.js';

const CompareChart = lazy(() => import('../../features/compare/CompareChart.js'));

export const COMPARATOR_MESSAGES = {
  loading: 'Chargement…',
  noAnalysis: 'Aucune analyse trouvée.',
  selectHint: 'Sélectionne 1 à 4 analyses pour afficher le graphique.',
  listError: 'Impossible de charger vos analyses.',
  dataError: 'Erreur lors du chargement des données.',
} as const;

type ListState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: Analysis[] };
type DataState = { status: 'idle' } | { status: 'loading' } | { status: 'error' } | { status: 'ready'; model: CompareChartModel };

function AnalysisRow({ analysis, checked, disabled, onToggle }: { analysis: Analysis; checked: boolean; disabled: boolean; onToggle: () => void }) {
  return (
    <li className={`analysis-row${checked ? ' checked' : ''}${disabled ? ' disabled' : ''}`}>
      <label className="check" title={disabled ? `${MAX_COMPARED} analyses au maximum` : analysis.label}>
        <input type="checkbox" checked={checked} disabled={disabled} onChange={onToggle} data-testid="analysis-checkbox" data-id={analysis.id} />
        <span className="analysis-text">
          <span className="analysis-head">
            <strong>{analysis.pair || '—'}</strong> <span className="tf-badge">{analysis.timeframe || '—'}</span>
          </span>
          <span className="analysis-strategy user-text">{analysis.strategy || '—'}</span>
          <span className="muted small">{analysisDetails(analysis)}</span>
        </span>
      </label>
    </li>
  );
}

function Legend({ model }: { model: CompareChartModel }) {
  return (
    <ul className="compare-legend" data-testid="compare-legend">
      {model.series.map((s) => (
        <li key={s.id}>
          <span className="swatch" style={{ background: s.color }} aria-hidden="true" />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function CompareTable({ model }: { model: CompareChartModel }) {
  return (
    <ScrollX className={`compare-table-wrap${tableScrolls(model.buckets.length) ? ' scrolls' : ''}`} label="Tableau comparatif" testId="compare-table">
      <table className="sheet-table compare-table">
        <thead>
          <tr>
            <th scope="col">{model.metric === 'day' ? 'Jour' : model.metric === 'hour' ? 'Heure' : model.metric === 'session' ? 'Session' : 'Mesure'}</th>
            {model.series.map((s) => (
              <th key={s.id} scope="col" title={s.label}>
                <span className="swatch" style={{ background: s.color }} aria-hidden="true" /> {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.buckets.map((bucket, i) => (
            <tr key={`${bucket}-${i}`}>
              <th scope="row">{bucket}</th>
              {model.series.map((s) => (
                <td key={s.id}>{formatValue(s.values[i], model)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}

export default function ComparateurPage() {
  const [params] = useSearchParams();
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [metric, setMetric] = useState<Metric>(DEFAULT_METRIC);
  const [chartType, setChartType] = useState<ChartType>('bars');
  const [data, setData] = useState<DataState>({ status: 'idle' });
  const idsParam = params.get('ids');

  useEffect(() => {
    let live = true;
    work.compareOptions().then(
      (answer) => {
        if (!live) return;
        const items = readAnalyses(answer);
        setList({ status: 'ready', items });
        setSelected(preselectedIds(idsParam, items));
      },
      () => live && setList({ status: 'error' }),
    );
    return () => {
      live = false;
    };
    // The ids parameter preselects once, when the list arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const labels = useMemo(() => new Map(list.status === 'ready' ? list.items.map((a) => [a.id, a.label]) : []), [list]);

  // Any change of selection or metric fetches the data again (docs/product.md §2.4); the chart type only redraws.
  useEffect(() => {
    if (selected.length === 0) {
      setData({ status: 'idle' });
      return;
    }
    let live = true;
    setData({ status: 'loading' });
    work.compareData(selected, metric).then(
      (answer) => live && setData({ status: 'ready', model: readCompareAnswer(answer, selected, labels) }),
      () => live && setData({ status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [selected, metric, labels]);

  const visible = list.status === 'ready' ? searchAnalyses(list.items, query) : [];

  return (
    <section className="comparator-page">
      <PageMeta title="Comparateur" noindex />
      <header className="page-head">
        <h1>Comparateur</h1>
        <p className="muted">Compare 1 à 4 de tes analyses, par session, jour, heure ou global.</p>
      </header>
      <div className="comparator-layout">
        <aside className="card comparator-list" aria-label="Mes analyses">
          <label>
            Rechercher
            <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Paire, stratégie, période…" data-testid="analysis-search" />
          </label>
          <div className="list-head">
            <h2>Mes analyses</h2>
            <span className="muted small" data-testid="selection-count">
              {selected.length}/{MAX_COMPARED}
            </span>
          </div>
          {list.status === 'loading' ? <p className="empty-state">{COMPARATOR_MESSAGES.loading}</p> : null}
          {list.status === 'error' ? (
            <p className="alert alert-error" role="alert">
              {COMPARATOR_MESSAGES.listError}
            </p>
          ) : null}
          {list.status === 'ready' && visible.length === 0 ? <p className="empty-state">{COMPARATOR_MESSAGES.noAnalysis}</p> : null}
          {visible.length > 0 ? (
            <ul className="analysis-list" data-testid="analysis-list">
              {visible.map((analysis) => (
                <AnalysisRow
                  key={analysis.id}
                  analysis={analysis}
                  checked={selected.includes(analysis.id)}
                  disabled={isSelectionDisabled(selected, analysis.id)}
                  onToggle={() => setSelected((current) => toggleSelection(current, analysis.id))}
                />
              ))}
            </ul>
          ) : null}
        </aside>
        <div className="card comparator-main">
          <div className="compare-controls">
            <div className="segmented" role="group" aria-label="Type de graphique">
              {CHART_TYPES.map((t) => (
                <button key={t.value} type="button" className={chartType === t.value ? 'active' : ''} aria-pressed={chartType === t.value} onClick={() => setChartType(t.value)} data-testid={`chart-type-${t.value}`}>
                  {t.label}
                </button>
              ))}
            </div>
            <label className="inline-label">
              Métrique
              <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)} data-testid="metric-select">
                {METRICS.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {data.status === 'idle' ? <p className="empty-state" data-testid="compare-hint">{COMPARATOR_MESSAGES.selectHint}</p> : null}
          {data.status === 'loading' ? <p className="empty-state">{COMPARATOR_MESSAGES.loading}</p> : null}
          {data.status === 'error' ? (
            <p className="alert alert-error" role="alert" data-testid="compare-error">
              {COMPARATOR_MESSAGES.dataError}
            </p>
          ) : null}
          {data.status === 'ready' ? (
            <div className="compare-result" data-testid="compare-result" data-metric={data.model.metric}>
              <h2 className="compare-title">
                {metricLabel(data.model.metric)} — {data.model.series.length} analyse{data.model.series.length > 1 ? 's' : ''}
              </h2>
              <Legend model={data.model} />
              <CompareTable model={data.model} />
              {hasValues(data.model) ? null : <p className="muted small">Aucun trade résolu sur ces analyses pour cette métrique.</p>}
              <Suspense fallback={<p className="empty-state">{COMPARATOR_MESSAGES.loading}</p>}>
                <CompareChart model={data.model} type={chartType} />
              </Suspense>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
