import { FileDown } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Modal } from '../../components/Modal.js';
import { DownloadLink } from '../../components/DownloadLink.js';
import { METHOD_NAMES, euros } from '../../features/payments/offers.js';
import { successPath, type Purchase } from '../../features/payments/payments.js';
import { OFFERS } from '../../lib/catalogue.js';

/** The payment-success dialog: what was bought, how, the credits, the invoice. */
export function PaymentSuccessDialog({ purchase, invoiceUrl, onClose }: { purchase: Purchase; invoiceUrl: string | null; onClose: () => void }) {
  const label = OFFERS.find((o) => o.id === purchase.offerId)?.label ?? purchase.offerId;
  return (
    <Modal
      title="Paiement confirmé"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Fermer
          </button>
          <Link className="btn btn-primary" to={successPath(purchase)} data-testid="payment-summary-link">
            Voir le récapitulatif
          </Link>
        </>
      }
    >
      <div data-testid="payment-success">
        <p>
          Merci ! <strong>{label}</strong> : {euros(Math.round(purchase.priceEur * 100))} payés par {METHOD_NAMES[purchase.method]}.
        </p>
        <p className="ok-text">
          {purchase.credits} crédit{purchase.credits > 1 ? 's' : ''} ajouté{purchase.credits > 1 ? 's' : ''} à ton solde.
        </p>
        {invoiceUrl ? (
          <DownloadLink className="btn btn-small" href={invoiceUrl} file="facture.pdf" data-testid="payment-invoice">
            <FileDown size={16} aria-hidden="true" /> Télécharger la facture
          </DownloadLink>
        ) : null}
      </div>
    </Modal>
  );
}
