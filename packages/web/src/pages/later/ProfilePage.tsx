import { useNavigate } from 'react-router-dom';
import { analytics, session } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { creditsBadgeText } from '../../shell/credits.js';
import { LaterPage } from './LaterPage.js';

export default function ProfilePage() {
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <LaterPage title="Mon profil" intro="Compte, sécurité, vérification de l’e-mail et historique d’achats.">
      <dl className="summary-list">
        <dt>E-mail</dt>
        <dd>{String(user?.email ?? '—')}</dd>
        <dt>Formule</dt>
        <dd>{String(user?.plan ?? 'free')}</dd>
        <dt>Crédits</dt>
        <dd>{creditsBadgeText(user)}</dd>
      </dl>
      <button
        type="button"
        className="btn"
        onClick={() => {
          session.logout();
          analytics.reset();
          navigate('/home');
        }}
      >
        Se déconnecter
      </button>
    </LaterPage>
  );
}
