import { Link, useLocation } from 'react-router-dom';
import { Modal } from './Modal.js';

/**
 * Connection prompt for visitors (docs/product.md §2.1): register, log in, or continue as a visitor.
 * `onLeave` runs as the visitor follows either link (the backtest form keeps itself then).
 */
export function ConnectPrompt({ onClose, reason, onLeave }: { onClose: () => void; reason?: string; onLeave?: () => void }) {
  const location = useLocation();
  const next = encodeURIComponent(`${location.pathname}${location.search}${location.hash}`);
  return (
    <Modal title="Connexion requise" onClose={onClose}>
      <p>{reason ?? 'Crée un compte ou connecte-toi pour lancer un backtest, télécharger ou importer une stratégie.'}</p>
      <div className="connect-actions">
        <Link className="btn btn-primary" to={`/login?tab=register&next=${next}`} onClick={onLeave}>
          Créer un compte
        </Link>
        <Link className="btn" to={`/login?tab=login&next=${next}`} onClick={onLeave}>
          Se connecter
        </Link>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Continuer en visiteur
        </button>
      </div>
    </Modal>
  );
}
