import { Link } from 'react-router-dom';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer-inner">
        <span>© 2025 bt. Tous droits réservés</span>
        <span className="footer-version">Beta v1.3</span>
        <nav className="footer-links" aria-label="Liens légaux">
          <Link to="/legal/mentions-legales">Mentions légales</Link>
          <Link to="/legal/politique-confidentialite">Politique de confidentialité</Link>
          <Link to="/legal/cgu">CGU</Link>
          <Link to="/support/support">Support</Link>
        </nav>
      </div>
    </footer>
  );
}
