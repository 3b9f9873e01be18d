import { LaterPage } from './LaterPage.js';
export default function SuccessPage() {
  return <LaterPage title="Merci pour ton achat" intro="Confirmation de paiement." />;
}
