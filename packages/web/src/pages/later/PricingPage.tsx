import { LaterPage } from './LaterPage.js';
export default function PricingPage() {
  return <LaterPage title="Tarifs" intro="Packs de crédits et abonnements Starter et Pro." noindex={false} />;
}
