/**
 * Disk: a read-only explorer of the server's roots (docs/admin.md "Disk explorer"): a tree with
 * depth 0–5, pages of 10 to 5000 entries (500 by default), sizes in o/ko/Mo/Go, file download.
 * The tab checks the admin rights itself before listing anything.
 */
import { useEffect, useState } from 'react';
import { ChevronLeft, ChevronRight, Download, File, Folder, FolderUp } from 'lucide-react';
import type { FsEntry } from '../../api/admin.js';
import { session } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { admin, save } from './client.js';
import { formatCount, formatInstant, formatSize } from './format.js';
import { failure, MSG } from './messages.js';
import { Empty, ErrorLine, Loading, SectionHead, TableBox } from './ui.js';
import { useLoad } from './useLoad.js';
import { DEFAULT_LIMIT, DEPTH_MAX, LIMITS, parentPath } from './rules.js';

function Explorer() {
  const roots = useLoad(() => admin.fsRoots(), []);
  const [root, setRoot] = useState('');
  const [path, setPath] = useState('');
  const [depth, setDepth] = useState(0);
  const [limit, setLimit] = useState<number>(DEFAULT_LIMIT);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const list = roots.data?.roots ?? [];
  useEffect(() => {
    if (!root && list.length) setRoot(list[0].key);
  }, [root, list]);
  const tree = useLoad(() => (root ? admin.fsTree(root, path, depth, limit, offset) : Promise.resolve(null)), [root, path, depth, limit, offset]);

  const go = (next: string) => {
    setPath(next);
    setOffset(0);
    setError(null);
  };

  async function download(entry: FsEntry) {
    setError(null);
    try {
      save(await admin.fsDownload(root, entry.rel_path, entry.name));
    } catch (e) {
      setError(`${MSG.fileDownload} ${failure(e, '')}`.trim());
    }
  }

  const answer = tree.data;
  const entries = answer?.entries ?? [];
  return (
    <>
      {roots.error ? <ErrorLine text={failure(roots.error, MSG.loadFailed)} /> : null}
      <div className="admin-toolbar">
        <label className="admin-inline">
          Racine
          <select value={root} onChange={(e) => { setRoot(e.target.value); go(''); }} data-testid="disk-root">
            {list.map((r) => (
              <option key={r.key} value={r.key}>
                {`${r.label} (${r.scope})`}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-inline">
          Profondeur
          <select value={depth} onChange={(e) => { setDepth(Number(e.target.value)); setOffset(0); }} data-testid="disk-depth">
            {Array.from({ length: DEPTH_MAX + 1 }, (_, d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label className="admin-inline">
          Par page
          <select value={limit} onChange={(e) => { setLimit(Number(e.target.value)); setOffset(0); }} data-testid="disk-limit">
            {LIMITS.map((l) => (
              <option key={l} value={l}>
                {formatCount(l)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="admin-path">
        <button type="button" className="btn btn-small btn-ghost" disabled={path === ''} onClick={() => go(parentPath(path))} aria-label="Dossier parent" data-testid="disk-up">
          <FolderUp size={14} aria-hidden="true" />
        </button>
        <span className="mono" data-testid="disk-path">{`/${path}`}</span>
      </p>
      <ErrorLine text={error} />
      {tree.loading && !answer ? <Loading /> : null}
      {tree.error ? <ErrorLine text={failure(tree.error, MSG.loadFailed)} /> : null}
      {answer && entries.length === 0 ? <Empty text={MSG.noFile} /> : null}
      {entries.length > 0 ? (
        <TableBox testId="disk-table">
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>Nom</th>
                <th>Taille</th>
                <th>Modifié le</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.rel_path} data-testid="disk-entry" data-type={entry.type} data-rel={entry.rel_path}>
                  <td style={{ paddingLeft: `${0.6 + (entry.depth ?? 0) * 1.1}rem` }}>
                    {entry.type === 'dir' ? (
                      <button type="button" className="link-button admin-entry" onClick={() => go(entry.rel_path)} data-testid="disk-open">
                        <Folder size={14} aria-hidden="true" /> {entry.name}
                      </button>
                    ) : (
                      <span className="admin-entry">
                        <File size={14} aria-hidden="true" /> {entry.name}
                      </span>
                    )}
                  </td>
                  <td data-testid="disk-size">{entry.type === 'file' ? formatSize(entry.bytes) : '—'}</td>
                  <td>{formatInstant(entry.mtime_iso)}</td>
                  <td>
                    {entry.type === 'file' ? (
                      <button type="button" className="btn btn-small" onClick={() => void download(entry)} aria-label={`Télécharger ${entry.name}`} data-testid="disk-download">
                        <Download size={14} aria-hidden="true" />
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      {answer && answer.total > limit ? (
        <div className="admin-pager">
          <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - limit))} aria-label="Page précédente" data-testid="disk-prev">
            <ChevronLeft size={14} aria-hidden="true" />
          </button>
          <span className="muted small">{`${formatCount(offset + 1)}–${formatCount(Math.min(offset + limit, answer.total))} sur ${formatCount(answer.total)}${answer.truncated ? ' (liste tronquée)' : ''}`}</span>
          <button type="button" className="btn btn-small" disabled={offset + limit >= answer.total} onClick={() => setOffset(offset + limit)} aria-label="Page suivante" data-testid="disk-next">
            <ChevronRight size={14} aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </>
  );
}

export function DiskTab() {
  const state = useSession();
  const [pinged, setPinged] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    if (state.key) void session.checkAdmin().then((ok) => live && setPinged(Boolean(ok)));
    return () => {
      live = false;
    };
  }, [state.key]);
  const checking = pinged === null;
  return (
    <section className="admin-tab" data-testid="admin-disk">
      <SectionHead title="Disk" />
      {checking ? (
        <p className="muted" role="status" data-testid="disk-checking">
          {MSG.checkingRights}
        </p>
      ) : !pinged ? (
        <p className="alert alert-error" role="alert" data-testid="disk-refused">
          {MSG.adminRequired}
        </p>
      ) : (
        <Explorer />
      )}
    </section>
  );
}
