import type { AdminUser } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { admin } from './client.js';
import { HistoryTable } from './HistoryTable.js';
import { failure, MSG } from './messages.js';
import { Empty, ErrorLine, Loading } from './ui.js';
import { useLoad } from './useLoad.js';

/** One user's credit history since the last reset of the purchase history. */
export function UserHistoryModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const loaded = useLoad(() => admin.userHistory(user.id), [user.id]);
  return (
    <Modal title={`Historique de ${user.username || user.email}`} onClose={onClose} wide>
      {loaded.loading ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.detailsLoad)} /> : null}
      {loaded.data && loaded.data.history.length === 0 ? <Empty text={MSG.noEntry} /> : null}
      {loaded.data && loaded.data.history.length > 0 ? <HistoryTable lines={loaded.data.history} testId="user-history-table" /> : null}
    </Modal>
  );
}
