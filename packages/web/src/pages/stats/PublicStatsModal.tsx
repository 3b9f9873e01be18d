import { Link } from 'react-router-dom';
import { calls } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { SheetsModal } from './SheetsModal.js';
import { PUBLIC_SHEETS } from './sheets.js';

const loadMeta = (folder: string) => calls.publicSheetMeta(folder);
const loadSheet = (folder: string, sheet: string) => calls.publicSheet(folder, sheet);

/** Public statistics of a top strategy (docs/product.md §1.2); its call to action sends visitors to /login. */
export default function PublicStatsModal({ folder, title, onClose }: { folder: string | null; title: string; onClose: () => void }) {
  const { key } = useSession();
  const cta = key ? (
    <Link to="/backtest" className="btn btn-primary" data-testid="stats-cta">
      Lancer mon backtest
    </Link>
  ) : (
    <Link to="/login?tab=register&next=%2Fbacktest" className="btn btn-primary" data-testid="stats-cta">
      Créer un compte pour tester
    </Link>
  );
  return <SheetsModal title={title} folder={folder} loadMeta={loadMeta} loadSheet={loadSheet} allowed={PUBLIC_SHEETS} onClose={onClose} footer={cta} />;
}
