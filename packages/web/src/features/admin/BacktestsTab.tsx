/** Backtests: every user's finished runs, 20 then 20 more; the workbook; 'hide' kept in this browser. */
import { useState, useSyncExternalStore } from 'react';
import { Download, EyeOff } from 'lucide-react';
import type { BacktestSummaryItem } from '../../api/admin.js';
import { formatPercentFr, parseWinrate, periodLabel, winrateClass } from '../../lib/format.js';
import { admin, hiddenBacktests, notify, save } from './client.js';
import { formatCount, formatInstant } from './format.js';
import { failure, MSG } from './messages.js';
import { Clamped, Empty, ErrorLine, Loading, MoreRows, SectionHead, TableBox } from './ui.js';
import { shownOf } from './pages.js';
import { BACKTESTS_PAGES, stopOf } from './rules.js';
import { usePages } from '../paging/usePages.js';

export function BacktestsTab() {
  const loaded = usePages((page) => admin.backtestSummary(page.limit, page.offset), (item) => item.id, BACKTESTS_PAGES, []);
  const hidden = useSyncExternalStore(hiddenBacktests.subscribe, hiddenBacktests.getSnapshot, hiddenBacktests.getSnapshot);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const list = loaded.list;
  const items = list?.items ?? [];
  const visible = items.filter((i) => !hidden.includes(String(i.id)));
  const total = list?.total ?? 0;

  async function download(item: BacktestSummaryItem) {
    setBusy(String(item.id));
    setError(null);
    try {
      save(await admin.downloadXlsx({ id: item.id, symbol: item.symbol, timeframe: item.timeframe, strategy: item.strategy, period: item.period, sl: stopOf(item) }, `${item.folder}.xlsx`));
    } catch (e) {
      setError(MSG.downloadImpossible(failure(e, MSG.connection)));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="admin-tab" data-testid="admin-backtests">
      <SectionHead title="Backtests">
        <span className="muted small" data-testid="backtests-count">{list ? shownOf(items.length, total) : ''}</span>
        {hidden.length > 0 ? (
          <button type="button" className="btn btn-small" onClick={() => { hiddenBacktests.unhideAll(); notify('Backtests masqués réaffichés.', 'info'); }} data-testid="backtests-unhide">
            {`Réafficher les masqués (${hidden.length})`}
          </button>
        ) : null}
      </SectionHead>
      <ErrorLine text={error} />
      {loaded.loading && !list ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.backtestsLoad)} /> : null}
      {list && visible.length === 0 ? <Empty /> : null}
      {visible.length > 0 ? (
        <TableBox testId="backtests-table">
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>Date</th>
                <th>Utilisateur</th>
                <th>Symbole</th>
                <th>UT</th>
                <th>Stratégie</th>
                <th>Période</th>
                <th>Win rate TP1</th>
                <th>Trades</th>
                <th>TP1</th>
                <th>TP2</th>
                <th>SL</th>
                <th>Stop (pips)</th>
                <th>Dossier</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {visible.map((item) => {
                const winrate = parseWinrate(item.winrate_tp1);
                return (
                  <tr key={item.id} data-testid="backtest-row" data-id={item.id} data-folder={item.folder}>
                    <td>{formatInstant(item.created_at)}</td>
                    <td>
                      <Clamped text={item.user} />
                    </td>
                    <td>{item.symbol}</td>
                    <td>{item.timeframe}</td>
                    <td>
                      <Clamped text={item.strategy_label ?? item.strategy} />
                    </td>
                    <td>{periodLabel(item.period)}</td>
                    <td className={`winrate-cell ${winrateClass(item.winrate_tp1) ?? ''}`}>{winrate === null ? '—' : formatPercentFr(winrate / 100)}</td>
                    <td>{formatCount(item.total)}</td>
                    <td>{formatCount(item.tp1)}</td>
                    <td>{formatCount(item.tp2)}</td>
                    <td>{formatCount(item.sl)}</td>
                    <td>{formatCount(stopOf(item))}</td>
                    <td className="mono small" data-raw>
                      {item.folder}
                    </td>
                    <td>
                      <div className="admin-row-actions">
                        <button type="button" className="btn btn-small" disabled={busy === String(item.id)} onClick={() => void download(item)} aria-label={`Télécharger ${item.folder}.xlsx`} data-testid="backtest-xlsx">
                          <Download size={14} aria-hidden="true" /> xlsx
                        </button>
                        <button type="button" className="btn btn-small btn-ghost" onClick={() => hiddenBacktests.hide(item.id)} aria-label={`Masquer ${item.folder}`} data-testid="backtest-hide">
                          <EyeOff size={14} aria-hidden="true" /> Masquer
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      <MoreRows paging={loaded} sizes={BACKTESTS_PAGES} testId="backtests-more" />
    </section>
  );
}
