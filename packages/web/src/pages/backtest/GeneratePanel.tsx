import { useState } from 'react';
import { Sparkles } from 'lucide-react';
import { createdByText, generatorTexts } from '../../features/generator/provider.js';
import { useGeneratorProvider } from '../../features/generator/useGeneratorProvider.js';
import { calls } from '../../runtime.js';
import { PERSONAL_MESSAGES, generationFailure, generationResult, type GenerationResult } from './personal.js';
import { saveBlob } from '../../lib/saveBlob.js';
import { StopModeSelect, type StopMode } from './StopModeSelect.js';

interface Props {
  loggedIn: boolean;
  onNeedLogin: () => void;
  /** Selects the strategy in gpt mode; resolves false when it is not in the list yet. */
  onUse: (strategyId: string) => Promise<boolean>;
}

/** The backtest form's toggle of this panel, naming the generator the server has. */
export function GenerateToggleLabel() {
  const provider = useGeneratorProvider();
  return (
    <>
      <Sparkles size={16} aria-hidden="true" /> {generatorTexts(provider).toggle}
    </>
  );
}

/**
 * Strategy generation (docs/web.md "Backtest screen"): idle, generating, done with 'use' and
 * 'download .py'. Named 'IA' only when the server has a chat model; otherwise the built-in
 * generator (features/generator/provider.ts).
 */
export function GeneratePanel({ loggedIn, onNeedLogin, onUse }: Props) {
  const texts = generatorTexts(useGeneratorProvider());
  const [prompt, setPrompt] = useState('');
  const [slMode, setSlMode] = useState<StopMode>('external');
  const [state, setState] = useState<'idle' | 'generating' | 'done'>('idle');
  const [result, setResult] = useState<GenerationResult | null>(null);
  const [note, setNote] = useState<string | null>(null);

  async function generate() {
    if (!loggedIn) return onNeedLogin();
    if (!prompt.trim()) return setResult({ kind: 'error', message: PERSONAL_MESSAGES.promptRequired });
    setState('generating');
    setResult(null);
    setNote(null);
    let outcome: GenerationResult;
    try {
      outcome = generationResult(await calls.generateStrategy(prompt.trim(), slMode));
    } catch (error) {
      outcome = generationFailure(error);
    }
    if (outcome.kind === 'login') {
      setState('idle');
      return onNeedLogin();
    }
    setResult(outcome);
    setState(outcome.kind === 'done' ? 'done' : 'idle');
  }

  async function use(id: string) {
    setNote((await onUse(id)) ? null : PERSONAL_MESSAGES.notReady);
  }

  async function download(id: string) {
    try {
      saveBlob(await calls.downloadStrategy(id), `${id}.py`);
    } catch {
      setNote(PERSONAL_MESSAGES.downloadFailed);
    }
  }

  return (
    <div className="panel" data-testid="ai-panel">
      <h3>
        <Sparkles size={18} aria-hidden="true" /> {texts.title}
      </h3>
      {texts.hint ? (
        <p className="muted small" data-testid="generator-hint">
          {texts.hint}
        </p>
      ) : null}
      <label>
        Décris ta logique d’entrée
        <textarea rows={4} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder="Ex. : FVG haussier en M15, RSI sous 35, entrée au retour dans la zone, 3 bougies d’attente minimum" />
      </label>
      <StopModeSelect value={slMode} onChange={setSlMode} />
      <button type="button" className="btn btn-primary" onClick={generate} disabled={state === 'generating'}>
        {state === 'generating' ? 'Génération…' : 'Générer'}
      </button>
      {result?.kind === 'error' ? <p className="alert alert-error" role="alert">{result.message}</p> : null}
      {result?.kind === 'done' ? (
        <div className="generated">
          <p data-testid="generated-by">
            {createdByText(result.provider)} : <code>{result.strategyId}</code>
          </p>
          {result.comment ? <p className="muted small">{result.comment}</p> : null}
          <div className="row-actions">
            <button type="button" className="btn btn-small btn-primary" onClick={() => use(result.strategyId)}>
              Utiliser
            </button>
            <button type="button" className="btn btn-small" onClick={() => download(result.strategyId)}>
              Télécharger .py
            </button>
          </div>
        </div>
      ) : null}
      {note ? <p className="alert alert-warn">{note}</p> : null}
    </div>
  );
}
