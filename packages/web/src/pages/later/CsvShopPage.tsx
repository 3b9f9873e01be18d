import { LaterPage } from './LaterPage.js';
export default function CsvShopPage() {
  return <LaterPage title="CSV Shop" intro="Fichiers de prix standardisés (OHLCV et indicateurs), 1 crédit le fichier." />;
}
