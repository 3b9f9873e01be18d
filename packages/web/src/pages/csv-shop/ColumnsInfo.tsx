import { useEffect, useRef, useState } from 'react';
import { CSV_COLUMNS } from '../../features/csv/library.js';

/** The info strip and its column-details popover (docs/product.md §2.2, §2.9 "Price-data CSV format"). */
export function ColumnsInfo() {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="info-strip" ref={box} data-testid="csv-info-strip">
      <span>Un fichier = une paire, une unité de temps, un mois</span>
      <span aria-hidden="true">·</span>
      <span>Heures en UTC</span>
      <span aria-hidden="true">·</span>
      <span>Bibliothèque mise à jour chaque mois</span>
      <span aria-hidden="true">·</span>
      <span>1 crédit, re-téléchargement gratuit</span>
      <button type="button" className="link-button" aria-expanded={open} aria-controls="csv-columns" onClick={() => setOpen((o) => !o)} data-testid="csv-columns-toggle">
        Détail des colonnes
      </button>
      {open ? (
        <div className="columns-popover" id="csv-columns" role="dialog" aria-label="Détail des colonnes" data-testid="csv-columns">
          <p className="small muted">En-têtes exacts, sensibles à la casse :</p>
          <dl>
            {CSV_COLUMNS.map((c) => (
              <div key={c.name}>
                <dt className="mono">{c.name}</dt>
                <dd>{c.text}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}
