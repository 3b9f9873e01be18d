/** The output import: a ZIP or a URL, the target month, skip or overwrite, dry run; idle → simulating / executing. */
import { useState, type FormEvent } from 'react';
import { Upload } from 'lucide-react';
import type { ImportAnswer } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { admin } from './client.js';
import { formatCount } from './format.js';
import { currentMonth, importProblem, needsConfirmation, stateFor, type ImportMode, type ImportState } from './importForm.js';
import { failure, MSG } from './messages.js';
import { ErrorLine, SectionHead, TableBox } from './ui.js';

const STATE_LABELS: Record<ImportState, string> = { idle: 'Prêt', simulating: 'Simulation en cours…', executing: 'Import en cours…' };

export function ImportPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [month, setMonth] = useState(() => currentMonth(Date.now()));
  const [mode, setMode] = useState<ImportMode>('skip');
  const [dryRun, setDryRun] = useState(true);
  const [state, setState] = useState<ImportState>('idle');
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  // An import that overwrites (not a dry run) replaces library months: asked first, like the resets.
  const [confirming, setConfirming] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = importProblem(file, url);
    setAnswer(null);
    if (problem) return setError(problem);
    setError(null);
    if (needsConfirmation(mode, dryRun)) return setConfirming(true);
    void run();
  }

  async function run() {
    setConfirming(false);
    setState(stateFor(dryRun));
    try {
      const result = await admin.importOutput({ file, fileName: file?.name, sourceUrl: url.trim() || undefined, targetMonth: month, mode, dryRun });
      if (!result || !Array.isArray(result.added)) throw new Error(MSG.invalidAnswer);
      setAnswer(result);
    } catch (e) {
      setError(`${MSG.importFailed} ${failure(e, '')}`.trim());
    } finally {
      setState('idle');
    }
  }

  const lines = answer
    ? [
        ...answer.added.map((l) => ({ ...l, what: answer.dry_run ? 'à ajouter' : 'ajouté' })),
        ...answer.overwritten.map((l) => ({ ...l, what: answer.dry_run ? 'à remplacer' : 'remplacé' })),
        ...answer.skipped.map((l) => ({ ...l, what: 'ignoré (déjà présent)' })),
      ]
    : [];
  return (
    <div className="admin-block" data-testid="maintenance-import">
      <SectionHead title="Import des données (output)">
        <span className={`badge admin-state-${state}`} data-testid="import-state" data-state={state}>
          {STATE_LABELS[state]}
        </span>
      </SectionHead>
      <form className="admin-import-form" onSubmit={submit} noValidate>
        <label>
          Archive ZIP
          <input type="file" accept=".zip,application/zip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="import-file" />
        </label>
        <label>
          ou URL
          <input type="url" placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} data-testid="import-url" />
        </label>
        <label>
          Mois cible
          <input type="month" value={month} onChange={(e) => setMonth(e.target.value)} data-testid="import-month" />
        </label>
        <label>
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as ImportMode)} data-testid="import-mode">
            <option value="skip">skip (ne pas écraser)</option>
            <option value="overwrite">overwrite (remplacer)</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} data-testid="import-dry-run" />
          Simulation (dry run)
        </label>
        <button type="submit" className="btn btn-primary" disabled={state !== 'idle'} data-testid="import-submit">
          <Upload size={16} aria-hidden="true" /> {dryRun ? 'Simuler' : 'Importer'}
        </button>
      </form>
      <ErrorLine text={error} />
      {confirming ? (
        <ConfirmDialog
          title="Remplacer les mois déjà présents ?"
          text={`Les fichiers de ${month} déjà dans la bibliothèque pour les symboles et unités de temps de l’archive seront remplacés. Cette action est irréversible : lance d’abord une simulation pour voir ce qui serait remplacé.`}
          confirmLabel="Remplacer"
          danger
          busy={false}
          error={null}
          onConfirm={() => void run()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
      {answer ? (
        <div data-testid="import-result">
          <p className="small">
            {`${answer.dry_run ? 'Simulation' : 'Import'} ${answer.target_month} (${answer.mode}) : ${formatCount(answer.added.length)} ajouté(s), ${formatCount(answer.overwritten.length)} remplacé(s), ${formatCount(answer.skipped.length)} ignoré(s), ${formatCount(answer.errors.length)} erreur(s).`}
          </p>
          {lines.length ? (
            <TableBox>
              <table className="sheet-table admin-table">
                <thead>
                  <tr>
                    <th>Fichier</th>
                    <th>Symbole</th>
                    <th>UT</th>
                    <th>Mois</th>
                    <th>Lignes</th>
                    <th>Résultat</th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l, i) => (
                    <tr key={i} data-testid="import-line">
                      <td>{l.file}</td>
                      <td>{l.symbol ?? '—'}</td>
                      <td>{l.timeframe ?? '—'}</td>
                      <td>{l.month ?? '—'}</td>
                      <td>{formatCount(l.rows)}</td>
                      <td>{l.what}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          ) : null}
          {answer.errors.length ? (
            <ul className="error-text small" data-testid="import-errors">
              {answer.errors.map((e, i) => (
                <li key={i}>{`${e.file} : ${e.detail}`}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
