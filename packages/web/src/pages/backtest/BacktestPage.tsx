import { LIBRARY_TIMEFRAMES, TIMEFRAMES, findSymbol } from '@bt/core/catalogue';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConnectPrompt } from '../../components/ConnectPrompt.js';
import { CostFields } from '../../features/costs/CostFields.js';
import { costsForSymbol } from '../../features/costs/costs.js';
import { PageMeta } from '../../components/PageMeta.js';
import { formatCompactFr } from '@bt/core/format';
import { CalendarRange, FileUp } from 'lucide-react';
import { SYMBOLS_BY_LABEL } from '../../lib/catalogue.js';
import { calls, session, tabStorage } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { creditBalance } from '../../shell/credits.js';
import { availableText, parseAvailability, presetFromData, symbolChoices, timeframeChoices, usableTimeframe, type Availability } from './availability.js';
import { DATE_PRESETS, presetRange } from './dates.js';
import { clearDraft, readDraft, saveDraft } from './draft.js';
import {
  buildParams,
  canSubmit,
  customRequestFields,
  formError,
  initialForm,
  officialRequest,
  paramLayout,
  runDays,
  symbolFromQuery,
  type BacktestFormState,
} from './form.js';
import { GeneratePanel, GenerateToggleLabel } from './GeneratePanel.js';
import { ImportPanel } from './ImportPanel.js';
import { ParamFields } from './ParamFields.js';
import { ProgressPanel } from './ProgressPanel.js';
import { backtestFailureMessage, parseBacktestAnswer, type BacktestOutcome, type ParsedAnswer } from './result.js';
import { StrategyPickers } from './StrategyPickers.js';
import { TipsAside } from './TipsAside.js';
import { useRun } from './useRun.js';
import { parseUserStrategies, signatureFromAnswer, type PersonalListStatus, type UserStrategy } from './userStrategies.js';
import { useAnswerOnce } from '../../lib/useAnswerOnce.js';

type Panel = 'ai' | 'import' | null;

// The result card (result view, statistics modal) loads once a result is there: the form's first load stays small.
const ResultCard = lazy(() => import('./ResultCard.js').then((m) => ({ default: m.ResultCard })));

export default function BacktestPage() {
  const [params, setParams] = useSearchParams();
  const state = useSession();
  const loggedIn = !!state.key;
  // A form kept across the connection prompt comes back once (draft.ts).
  const [form, setForm] = useState<BacktestFormState>(() => readDraft(tabStorage, initialForm({ symbol: symbolFromQuery(params.get('symbol')) }), Date.now()));
  useEffect(() => clearDraft(tabStorage), []);
  const [userStrategies, setUserStrategies] = useState<UserStrategy[]>([]);
  // Whether the list above has been asked for this key (answered or failed): ?strategy= waits for it.
  const [strategiesLoaded, setStrategiesLoaded] = useState(false);
  const [strategiesStatus, setStrategiesStatus] = useState<PersonalListStatus>('loading');
  const [serverSignature, setServerSignature] = useState<string[] | null>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const [prompt, setPrompt] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<BacktestOutcome | null>(null);
  const [fileInput, setFileInput] = useState<File | null>(null);
  const { view, run } = useRun();
  // What the official library holds (public): the pair list, the timeframes and the presets follow it.
  const availability = useAnswerOnce(calls.datasets, parseAvailability, null as Availability | null);
  // A pair from the address (?symbol=, the pair sheets' link) gets a timeframe it has data in once
  // the library is known, as a pair chosen in the list does: most pairs have no M15, the default.
  useEffect(() => {
    if (!availability) return;
    setForm((current) => {
      if (current.mode !== 'official' || !current.symbol) return current;
      const timeframe = usableTimeframe(availability, current.symbol, current.timeframe, LIBRARY_TIMEFRAMES);
      return timeframe === current.timeframe ? current : { ...current, timeframe };
    });
  }, [availability]);

  const patch = useCallback((change: Partial<BacktestFormState>) => {
    setForm((current) => ({ ...current, ...change }));
    setError(null);
  }, []);

  const refreshStrategies = useCallback(async (): Promise<UserStrategy[]> => {
    if (!session.getState().key) return [];
    try {
      const list = parseUserStrategies(await calls.userStrategies());
      setUserStrategies(list);
      setStrategiesStatus('ready');
      return list;
    } catch {
      setStrategiesStatus('error');
      return [];
    } finally {
      setStrategiesLoaded(true);
    }
  }, []);

  useEffect(() => {
    if (state.status === 'ready') void refreshStrategies();
    else {
      setStrategiesLoaded(false);
      setStrategiesStatus('loading');
      if (!state.key) setUserStrategies([]);
    }
  }, [state.status, state.key, refreshStrategies]);

  // ?strategy= preselects a personal strategy, then leaves the address (docs/product.md §2.2). A
  // signed-in user's list arrives after the session is ready: deciding before it (the list still
  // empty) dropped the parameter, and the dashboard's 'Utiliser' landed on no strategy.
  const wantedStrategy = params.get('strategy');
  useEffect(() => {
    if (!wantedStrategy) return;
    if (state.key && (state.status !== 'ready' || !strategiesLoaded)) return;
    if (userStrategies.some((s) => s.id === wantedStrategy)) patch({ source: 'gpt', userStrategyId: wantedStrategy });
    const copy = new URLSearchParams(params);
    copy.delete('strategy');
    setParams(copy, { replace: true });
  }, [wantedStrategy, userStrategies, strategiesLoaded, state.key, state.status, params, setParams, patch]);

  const strategyKey = form.source === 'official' ? form.officialStrategy : form.userStrategyId;
  useEffect(() => {
    setServerSignature(null);
    if (!strategyKey || !state.key) return;
    let alive = true;
    calls.strategyParams(strategyKey).then(
      (answer) => alive && setServerSignature(signatureFromAnswer(answer)),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [strategyKey, state.key]);

  const userStrategy = userStrategies.find((s) => s.id === form.userStrategyId) ?? null;
  const layout = useMemo(() => paramLayout(form, userStrategy, serverSignature), [form, userStrategy, serverSignature]);
  const credits = creditBalance(state.user);
  const pip = findSymbol(form.mode === 'official' ? form.symbol : form.customSymbol)?.pipSize ?? null;
  const official = form.mode === 'official';
  const timeframes = official
    ? timeframeChoices(LIBRARY_TIMEFRAMES, availability, form.symbol)
    : TIMEFRAMES.map((t) => ({ value: t.key, label: t.key, disabled: false }));
  const choices = useMemo(() => symbolChoices(SYMBOLS_BY_LABEL, availability), [availability]);
  const series = official ? (availability?.get(form.symbol)?.timeframes.get(form.timeframe) ?? null) : null;
  const rangeLine = official ? availableText(availability, form.symbol, form.timeframe) : null;

  /** A new pair moves the timeframe to one it has data in. */
  const chooseSymbol = (symbol: string) => patch({ symbol, costs: costsForSymbol(form.costs, symbol), timeframe: usableTimeframe(availability, symbol, form.timeframe, LIBRARY_TIMEFRAMES) });

  const selectPersonal = useCallback(
    async (id: string) => {
      const list = await refreshStrategies();
      if (!list.some((s) => s.id === id)) return false;
      patch({ source: 'gpt', userStrategyId: id, params: {} });
      return true;
    },
    [refreshStrategies, patch],
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!loggedIn) return setPrompt(true);
    const problem = formError(form, layout, { isAdmin: state.isAdmin, credits, loggedIn });
    if (problem) return setError(problem);
    const built = buildParams(form, layout);
    if ('error' in built) return setError(built.error);
    setError(null);
    setOutcome(null);
    const kind = form.mode;
    const parsed = await run<ParsedAnswer>(
      kind,
      form.timeframe,
      runDays(form),
      async () => {
        try {
          if (kind === 'official') return parseBacktestAnswer(await calls.runBacktest(officialRequest(form, built.params)), kind);
          const body = new FormData();
          for (const [name, value] of Object.entries(customRequestFields(form, built.params))) body.append(name, value);
          body.append('csv_file', fileInput!, fileInput!.name);
          return parseBacktestAnswer(await calls.uploadCsvAndBacktest(body), kind);
        } catch (failure) {
          return { ok: false, error: backtestFailureMessage(failure, kind) };
        }
      },
      (answer) => answer.ok,
    );
    if (!parsed.ok) {
      setError(parsed.error);
      void session.refresh();
      return;
    }
    setOutcome(parsed.outcome);
    if (parsed.outcome.creditsRemaining !== null) session.patchUser({ credits: parsed.outcome.creditsRemaining });
    else void session.refresh();
  }

  return (
    <div className="backtest-page">
      <PageMeta title="Backtest" noindex />
      <header className="page-head">
        <h1>Backtest</h1>
        <p className="muted">Choisis une paire, une période et une stratégie : bt calcule chaque trade et te montre ses Golden Hours.</p>
      </header>
      <div className="backtest-layout">
        <form className="card backtest-form" onSubmit={submit} noValidate data-testid="backtest-form">
          <div className="segmented" role="radiogroup" aria-label="Source des données">
            <button type="button" role="radio" aria-checked={form.mode === 'official'} className={form.mode === 'official' ? 'active' : ''} onClick={() => patch({ mode: 'official' })}>
              Données officielles
            </button>
            <button type="button" role="radio" aria-checked={form.mode === 'custom'} className={form.mode === 'custom' ? 'active' : ''} onClick={() => patch({ mode: 'custom' })}>
              CSV personnalisé
            </button>
          </div>

          <StrategyPickers form={form} userStrategies={userStrategies} listStatus={strategiesStatus} loggedIn={loggedIn} onChange={patch} />

          <div className="panel-toggles">
            <button type="button" className={`btn btn-small${panel === 'ai' ? ' active' : ''}`} aria-expanded={panel === 'ai'} onClick={() => setPanel(panel === 'ai' ? null : 'ai')}>
              <GenerateToggleLabel />
            </button>
            <button type="button" className={`btn btn-small${panel === 'import' ? ' active' : ''}`} aria-expanded={panel === 'import'} onClick={() => setPanel(panel === 'import' ? null : 'import')}>
              <FileUp size={16} aria-hidden="true" /> Importer un .py
            </button>
          </div>
          {panel === 'ai' ? <GeneratePanel loggedIn={loggedIn} onNeedLogin={() => setPrompt(true)} onUse={selectPersonal} /> : null}
          {panel === 'import' ? (
            <ImportPanel
              loggedIn={loggedIn}
              onNeedLogin={() => setPrompt(true)}
              onImported={async (id) => {
                await selectPersonal(id);
                setPanel(null);
              }}
            />
          ) : null}

          <div className="form-grid">
            {form.mode === 'official' ? (
              <label>
                Paire
                <select value={form.symbol} onChange={(e) => chooseSymbol(e.target.value)} data-testid="symbol">
                  <option value="">— Choisir —</option>
                  {choices.withoutData.length ? (
                    <>
                      <optgroup label="Avec données officielles">
                        {choices.withData.map((c) => (
                          <option key={c.value} value={c.value}>
                            {c.label}
                          </option>
                        ))}
                      </optgroup>
                      <optgroup label="Sans données pour l’instant">
                        {choices.withoutData.map((c) => (
                          <option key={c.value} value={c.value} disabled title={c.disabledReason}>
                            {c.label}
                          </option>
                        ))}
                      </optgroup>
                    </>
                  ) : (
                    choices.withData.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))
                  )}
                </select>
              </label>
            ) : (
              <>
                <label>
                  Fichier (.csv ou .xlsx)
                  <input
                    type="file"
                    accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    onChange={(e) => {
                      const file = e.target.files?.[0] ?? null;
                      setFileInput(file);
                      patch({ file: file ? { name: file.name } : null });
                    }}
                    data-testid="csv-file"
                  />
                </label>
                <label>
                  Symbole
                  <input
                    value={form.customSymbol}
                    onChange={(e) => patch({ customSymbol: e.target.value.toUpperCase(), costs: costsForSymbol(form.costs, e.target.value) })}
                    placeholder="EURUSD"
                    data-testid="custom-symbol"
                  />
                </label>
              </>
            )}
            <label>
              Timeframe
              <select value={form.timeframe} onChange={(e) => patch({ timeframe: e.target.value })} data-testid="timeframe">
                {timeframes.map((tf) => (
                  <option key={tf.value} value={tf.value} disabled={tf.disabled}>
                    {tf.label}
                  </option>
                ))}
              </select>
            </label>
            {pip !== null ? (
              <p className="pip-badge" title="Taille d’un pip pour cette paire">
                1 pip = {formatCompactFr(pip, 10)}
              </p>
            ) : null}
          </div>

          <div className="dates">
            <label>
              Début
              <input type="date" value={form.start} onChange={(e) => patch({ start: e.target.value })} data-testid="start-date" />
            </label>
            <label>
              Fin
              <input type="date" value={form.end} onChange={(e) => patch({ end: e.target.value })} data-testid="end-date" />
            </label>
            {rangeLine ? (
              <p className="data-range small" data-testid="data-range">
                <CalendarRange size={14} aria-hidden /> {rangeLine}
              </p>
            ) : null}
            <div className="presets">
              {DATE_PRESETS.map((preset) => {
                // Counted back from the last candle the library holds, not from today.
                const range = series ? presetFromData(preset.id, series) : official && availability ? null : presetRange(preset.id, Date.now());
                const why = official && !form.symbol ? 'Choisis d’abord une paire' : 'Pas de données pour cette période';
                return (
                  <button
                    key={preset.id}
                    type="button"
                    className="chip"
                    disabled={!range}
                    title={range ? undefined : why}
                    onClick={() => range && patch(range)}
                    data-preset={preset.id}
                  >
                    {preset.label}
                  </button>
                );
              })}
            </div>
          </div>

          <div className="form-grid risk">
            <label>
              SL (pips)
              <input type="number" min={0} step="any" inputMode="decimal" value={form.slPips} onChange={(e) => patch({ slPips: e.target.value })} data-testid="sl-pips" />
            </label>
            <label>
              TP1 (pips)
              <input type="number" min={0} step="any" inputMode="decimal" value={form.tp1Pips} onChange={(e) => patch({ tp1Pips: e.target.value })} data-testid="tp1-pips" />
            </label>
            <label>
              TP2 (pips)
              <input type="number" min={0} step="any" inputMode="decimal" value={form.tp2Pips} onChange={(e) => patch({ tp2Pips: e.target.value })} data-testid="tp2-pips" />
            </label>
          </div>

          <CostFields
            costs={form.costs}
            custom={form.mode === 'custom'}
            symbol={form.mode === 'official' ? form.symbol : form.customSymbol}
            onChange={(costs) => patch({ costs })}
          />

          <ParamFields form={form} layout={layout} onChange={patch} />

          {error ? (
            <p className="alert alert-error" role="alert" data-testid="form-error">
              {error}
            </p>
          ) : null}
          {view.visible ? <ProgressPanel percent={view.percent} elapsedMs={view.elapsedMs} etaMs={view.etaMs} done={view.done} /> : null}
          <button type="submit" className="btn btn-primary btn-block btn-large" disabled={!canSubmit(form) || view.running} data-testid="run-backtest">
            {view.running ? 'Analyse en cours…' : 'Lancer le backtest (2 crédits)'}
          </button>
        </form>
        <TipsAside />
      </div>
      {outcome ? (
        <Suspense fallback={<p className="muted">Chargement des résultats…</p>}>
          <ResultCard outcome={outcome} />
        </Suspense>
      ) : null}
      {prompt ? <ConnectPrompt onClose={() => setPrompt(false)} onLeave={() => saveDraft(tabStorage, form, Date.now())} /> : null}
    </div>
  );
}
