import { Link } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import { Hexagon } from 'lucide-react';

export type LegalTab = 'mentions' | 'confidentialite' | 'cgu';

export const LEGAL_LAST_UPDATED = '13-10-2025';

const TABS: { id: LegalTab; to: string; label: string }[] = [
  { id: 'mentions', to: '/legal/mentions-legales', label: 'Mentions légales' },
  { id: 'confidentialite', to: '/legal/politique-confidentialite', label: 'Politique de confidentialité' },
  { id: 'cgu', to: '/legal/cgu', label: 'CGU' },
];

function Mentions() {
  return (
    <>
      <h2>Éditeur</h2>
      <p>
        bt est un service en ligne de backtest de stratégies de trading, édité à titre professionnel. Pour toute question, écris-nous depuis la page{' '}
        <Link to="/support/support">Support</Link>.
      </p>
      <h2>Hébergement</h2>
      <p>Le service et ses données sont hébergés dans l’Union européenne.</p>
      <h2>Absence de conseil financier</h2>
      <p>
        bt fournit des outils d’analyse de données historiques. bt ne fournit aucun conseil financier personnalisé ; les performances passées ne
        préjugent pas des performances futures. Tu restes seul responsable de tes décisions de trading.
      </p>
      <h2>Propriété intellectuelle</h2>
      <p>Les contenus, le code et les données standardisées du service sont protégés. Toute reproduction non autorisée est interdite.</p>
    </>
  );
}

function Confidentialite() {
  return (
    <>
      <h2>Données collectées</h2>
      <p>
        Nom, prénom, adresse e-mail, nom d’utilisateur, historique d’achats et de crédits, résultats de backtests, fichiers importés et stratégies
        personnelles. Les mots de passe et clés de session sont stockés sous forme chiffrée (hachée).
      </p>
      <h2>Durées de conservation</h2>
      <ul>
        <li>Les journaux techniques (logs) sont conservés environ 30 à 90 jours.</li>
        <li>Un compte supprimé ou inactif est archivé pendant 12 mois avant effacement.</li>
        <li>Les factures sont conservées pendant la durée légale.</li>
      </ul>
      <h2>Mesure d’audience</h2>
      <p>
        Nous mesurons les pages vues pour améliorer le produit. Les champs de saisie sont masqués et aucun enregistrement de session n’a lieu sur les
        pages de connexion, de profil et d’administration.
      </p>
      <h2>Tes droits</h2>
      <p>
        Tu peux accéder à tes données, les rectifier, les exporter ou demander leur effacement depuis ton profil ou via le{' '}
        <Link to="/support/support">support</Link>.
      </p>
    </>
  );
}

function Cgu() {
  return (
    <>
      <h2>Objet</h2>
      <p>Les présentes conditions encadrent l’usage de bt : backtests, boutique de fichiers CSV, génération et import de stratégies, comparateur.</p>
      <h2>Crédits</h2>
      <ul>
        <li>Un backtest coûte 2 crédits ; un téléchargement ou une extraction de CSV coûte 1 crédit.</li>
        <li>Les crédits ne sont ni remboursables ni convertibles en argent.</li>
        <li>Les crédits gratuits offerts à titre promotionnel peuvent expirer.</li>
        <li>Un backtest ou une extraction qui échoue n’est pas facturé.</li>
      </ul>
      <h2>Limites anti-abus</h2>
      <p>
        Pour garantir la qualité du service, des limites s’appliquent : taille des fichiers CSV importés, durée des backtests (31 jours maximum par
        analyse) et fréquence des appels à l’API. Les comptes recréés en boucle avec une même adresse sont limités.
      </p>
      <h2>Responsabilité</h2>
      <p>
        Les résultats sont calculés sur des données historiques et ne constituent pas un conseil en investissement. Consulte la page{' '}
        <Link to="/a-savoir">À savoir</Link> pour comprendre les règles de calcul.
      </p>
      <h2>Compte</h2>
      <p>Tu peux te désabonner ou supprimer ton compte à tout moment depuis ton profil ; le compte est alors archivé 12 mois.</p>
    </>
  );
}

/** The three legal pages (docs/product.md §1.2), outside the main layout. */
export default function LegalPage({ tab }: { tab: LegalTab }) {
  const current = TABS.find((t) => t.id === tab)!;
  return (
    <div className="legal-page">
      <PageMeta title={current.label} />
      <header className="bare-header">
        <Link to="/" className="logo">
          <Hexagon className="logo-mark" size={22} strokeWidth={2.5} aria-hidden="true" /> bt
        </Link>
      </header>
      <article className="card legal-card">
        <nav className="tabs" aria-label="Pages légales">
          {TABS.map((t) => (
            <Link key={t.id} to={t.to} className={`tab${t.id === tab ? ' active' : ''}`} aria-current={t.id === tab ? 'page' : undefined}>
              {t.label}
            </Link>
          ))}
        </nav>
        <h1>{current.label}</h1>
        <p className="muted small">Dernière mise à jour : {LEGAL_LAST_UPDATED}</p>
        {tab === 'mentions' ? <Mentions /> : tab === 'confidentialite' ? <Confidentialite /> : <Cgu />}
        <p className="legal-more">
          Des questions ? Lis la page <Link to="/a-savoir">À savoir</Link> ou contacte le <Link to="/support/support">support</Link>.
        </p>
      </article>
    </div>
  );
}
