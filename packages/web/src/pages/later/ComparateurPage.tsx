import { LaterPage } from './LaterPage.js';
export default function ComparateurPage() {
  return <LaterPage title="Comparateur" intro="Compare 1 à 4 de tes analyses." />;
}
