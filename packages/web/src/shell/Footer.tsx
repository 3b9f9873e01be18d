import { Link } from 'react-router-dom';

export function Footer() {
  // The year of the visitor's clock, not of the build.
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="footer-inner">
        <span data-testid="footer-copyright">© {year} bt. Tous droits réservés</span>
        <span className="footer-version" data-raw>Beta v1.3</span>
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
