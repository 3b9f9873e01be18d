import { LaterPage } from './LaterPage.js';
export default function AdminPage() {
  return <LaterPage title="Administration" intro="Utilisateurs, historique, statistiques, backtests, stratégies, disque et maintenance." />;
}
