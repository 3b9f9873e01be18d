import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { CircleCheck } from 'lucide-react';
import { PageMeta } from '../../components/PageMeta.js';
import { claimPurchaseSuccess, purchaseSuccessEvent, readSuccess, type SuccessView } from '../../features/payments/payments.js';
import { analytics, tabStorage } from '../../runtime.js';
import '../pricing/pricing.css';

/** /success (docs/web.md "Pricing"): the purchase read from its parameters, a thank-you, the purchase_success event. */
export default function SuccessPage() {
  const location = useLocation();
  const [view, setView] = useState<SuccessView | null>(null);

  useEffect(() => {
    const read = readSuccess(location.search);
    setView(read);
    // Once per payment confirmed in this tab (its `ref`): not on a reload, a copied address or an
    // address without a payment reference; the mark also holds if React runs the effect twice.
    if (claimPurchaseSuccess(tabStorage, location.search)) analytics.capture('purchase_success', purchaseSuccessEvent(read));
  }, [location.search]);

  return (
    <section className="success-page">
      <PageMeta title="Merci pour ton achat" noindex />
      {view === null ? (
        <p className="empty-state">Chargement…</p>
      ) : (
        <div className="card success-card" data-testid="success-card">
          <h1>
            <CircleCheck size={26} aria-hidden="true" /> Merci pour ton achat !
          </h1>
          <dl className="summary-list">
            <dt>Offre</dt>
            <dd data-testid="success-offer">{view.offerLabel}</dd>
            <dt>Prix payé</dt>
            <dd data-testid="success-price">{view.price}</dd>
            <dt>Moyen de paiement</dt>
            <dd data-testid="success-method">{view.methodLabel}</dd>
            <dt>Crédits ajoutés</dt>
            <dd data-testid="success-credits">{view.credits === null ? '—' : `+${view.credits}`}</dd>
          </dl>
          <p className="muted small">Ta facture est dans l’historique d’achats de ton profil.</p>
          <Link className="btn btn-primary" to="/profile" data-testid="success-profile">
            Voir mon profil
          </Link>
        </div>
      )}
    </section>
  );
}
