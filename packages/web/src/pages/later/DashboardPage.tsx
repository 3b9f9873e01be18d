import { Link } from 'react-router-dom';
import { LaterPage } from './LaterPage.js';
export default function DashboardPage() {
  return (
    <LaterPage title="Mon dashboard" intro="Tes backtests, tes stratégies, tes CSV et tes épingles.">
      <Link to="/backtest" className="btn btn-primary">Lancer une analyse</Link>
    </LaterPage>
  );
}
