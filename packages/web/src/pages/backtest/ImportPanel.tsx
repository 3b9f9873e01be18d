import { useState } from 'react';
import { calls } from '../../runtime.js';
import { PERSONAL_MESSAGES, importFailureMessage, importedStrategyId } from './personal.js';
import { StopModeSelect, type StopMode } from './StopModeSelect.js';
import { FileUp } from 'lucide-react';

interface Props {
  loggedIn: boolean;
  onNeedLogin: () => void;
  onImported: (strategyId: string) => Promise<unknown>;
  /** false inside a modal that already carries the title (the dashboard's import). */
  heading?: boolean;
}

/** Import a .py strategy (docs/product.md §2.5): checked on the server, no credit consumed. */
export function ImportPanel({ loggedIn, onNeedLogin, onImported, heading = true }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [slMode, setSlMode] = useState<StopMode>('external');
  const [note, setNote] = useState('');
  const [state, setState] = useState<'idle' | 'importing'>('idle');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    if (!loggedIn) return onNeedLogin();
    if (!file) return;
    setState('importing');
    setError(null);
    try {
      const form = new FormData();
      form.append('file', file);
      form.append('sl_mode', slMode);
      if (note.trim()) form.append('comment_user', note.trim());
      const id = importedStrategyId(await calls.importStrategy(form));
      if (!id) setError(PERSONAL_MESSAGES.importUnexpected);
      else await onImported(id);
    } catch (failure) {
      setError(importFailureMessage(failure));
    } finally {
      setState('idle');
    }
  }

  return (
    <div className="panel" data-testid="import-panel">
      {heading ? <h3 className="icon-heading">
          <FileUp size={18} aria-hidden="true" /> Importer une stratégie (.py)
        </h3> : null}
      <p className="muted small">
        Un fichier Python qui définit <code>detect_&lt;id&gt;</code>. Le code est vérifié (contrôle de sécurité et exécution à blanc) ; aucun crédit n’est consommé.
      </p>
      <label>
        Fichier .py
        <input type="file" accept=".py,text/x-python" onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="import-file" />
      </label>
      <StopModeSelect value={slMode} onChange={setSlMode} />
      <label>
        Note (facultative)
        <input value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <button type="button" className="btn btn-primary" onClick={submit} disabled={!file || state === 'importing'}>
        {state === 'importing' ? 'Import…' : 'Importer'}
      </button>
      {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
    </div>
  );
}
