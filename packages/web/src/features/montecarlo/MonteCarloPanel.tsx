/**
 * Monte Carlo of a result (docs/engine.md §15): core's monteCarlo run in the browser, in a worker
 * (useMonteCarlo.ts), on the net R sequence the run returned (`r_sequence`), seeded; a histogram of one distribution and the 5th,
 * 50th and 95th percentiles of max drawdown, final R and longest losing streak, and the risk of
 * ruin at a risk per trade. Self-contained: the result view passes the sequences.
 */
import * as Plot from '@observablehq/plot';
import type { Distribution, MonteCarloMethod } from '@bt/core/montecarlo';
import { useEffect, useRef, useState } from 'react';
import { ScrollX } from '../../components/ScrollX.js';
import { useMonteCarlo } from './useMonteCarlo.js';
import { histogramAxes, monteCarloIntro, monteCarloValue } from './texts.js';

export interface RSequences {
  readonly tp1: readonly number[];
  readonly tp2: readonly number[];
}

type Metric = 'maxDrawdownR' | 'finalR' | 'longestLosingStreak';
const METRICS: { key: Metric; label: string; unit: string }[] = [
  { key: 'maxDrawdownR', label: 'Drawdown max', unit: 'R' },
  { key: 'finalR', label: 'R final', unit: 'R' },
  { key: 'longestLosingStreak', label: 'Série perdante max', unit: 'trades' },
];

function Histogram({ distribution, label }: { distribution: Distribution; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const { edges, counts } = distribution.histogram;
    const total = counts.reduce((a, b) => a + b, 0) || 1;
    const bins = counts.map((c, i) => ({ x1: edges[i], x2: edges[i + 1] > edges[i] ? edges[i + 1] : edges[i] + 1, share: (100 * c) / total }));
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth || 560),
      height: 220,
      marginLeft: 44,
      style: { background: 'transparent', color: '#cbd5e1', fontSize: '11px' },
      ...histogramAxes(label),
      marks: [
        Plot.rectY(bins, { x1: 'x1', x2: 'x2', y: 'share', fill: '#3b82f6', fillOpacity: 0.85, inset: 0.5 }),
        Plot.ruleX(distribution.percentiles, { x: 'value', stroke: '#f5b301', strokeDasharray: '4 3' }),
        Plot.ruleY([0]),
      ],
    });
    node.replaceChildren(chart);
    return () => chart.remove();
  }, [distribution, label]);
  return <div ref={ref} className="mc-histogram" data-testid="mc-histogram" />;
}

export default function MonteCarloPanel({ sequences }: { sequences: RSequences }) {
  const [method, setMethod] = useState<MonteCarloMethod>('bootstrap');
  const [target, setTarget] = useState<'tp1' | 'tp2'>('tp1');
  const [risk, setRisk] = useState('1');
  const [metric, setMetric] = useState<Metric>('maxDrawdownR');
  const sequence = sequences[target];
  const riskPerTrade = Number(risk.replace(',', '.')) / 100;
  const riskValid = riskPerTrade > 0 && riskPerTrade < 1;
  const run = useMonteCarlo(sequence, method, riskValid ? riskPerTrade : null);
  const result = riskValid ? run.result : null;
  const error = riskValid ? run.error : 'Risque par trade : un pourcentage entre 0 et 100 (exclus).';

  if (sequence.length === 0) {
    return (
      <section className="card mc-panel" data-testid="mc-panel">
        <h3>Monte Carlo</h3>
        <p className="muted">Aucun trade résolu à {target.toUpperCase()} : rien à tirer.</p>
      </section>
    );
  }
  const shown = METRICS.find((m) => m.key === metric)!;
  return (
    <section className="card mc-panel" data-testid="mc-panel">
      <h3>Monte Carlo</h3>
      <p className="muted small" data-testid="mc-intro">
        {monteCarloIntro(method, sequence.length)}
      </p>
      <div className="form-grid">
        <label>
          Méthode
          <select value={method} onChange={(e) => setMethod(e.target.value as MonteCarloMethod)} data-testid="mc-method">
            <option value="bootstrap">Bootstrap (avec remise)</option>
            <option value="shuffle">Mélange (mêmes trades)</option>
          </select>
        </label>
        <label>
          Objectif
          <select value={target} onChange={(e) => setTarget(e.target.value as 'tp1' | 'tp2')} data-testid="mc-target">
            <option value="tp1">TP1</option>
            <option value="tp2">TP2</option>
          </select>
        </label>
        <label>
          Risque par trade (%)
          <input type="text" inputMode="decimal" value={risk} onChange={(e) => setRisk(e.target.value)} data-testid="mc-risk" />
        </label>
        <label>
          Distribution
          <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)} data-testid="mc-metric">
            {METRICS.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
      {!result && !error ? <p className="muted">Calcul…</p> : null}
      {result ? (
        <>
          <Histogram distribution={result[metric]} label={`${shown.label} (${shown.unit})`} />
          <ScrollX label="Centiles Monte Carlo">
          <table className="mc-percentiles" data-testid="mc-percentiles">
            <thead>
              <tr>
                <th />
                {result.maxDrawdownR.percentiles.map((p) => (
                  <th key={p.p}>{`${p.p}e centile`}</th>
                ))}
                <th>Observé</th>
              </tr>
            </thead>
            <tbody>
              {METRICS.map((m) => (
                <tr key={m.key}>
                  <th scope="row">{`${m.label} (${m.unit})`}</th>
                  {result[m.key].percentiles.map((p) => (
                    <td key={p.p}>{monteCarloValue(p.value, m.key === 'longestLosingStreak')}</td>
                  ))}
                  <td>{monteCarloValue(result[m.key].observed, m.key === 'longestLosingStreak')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </ScrollX>
          <p data-testid="mc-ruin">
            Risque de ruine : <strong>{monteCarloValue(result.riskOfRuin.probability * 100, false)} %</strong> des tirages perdent 50 % du capital en risquant {monteCarloValue(result.riskOfRuin.riskPerTrade * 100, false)} % par trade.
          </p>
        </>
      ) : null}
    </section>
  );
}
