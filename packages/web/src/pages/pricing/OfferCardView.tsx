import { Coins, Crown, Gift, Rocket, Zap } from 'lucide-react';
import { SUBSCRIBER_PACK_BONUS_RATE } from '../../lib/catalogue.js';
import { euros, type OfferCard } from '../../features/payments/offers.js';

const BONUS_PERCENT = Math.round(SUBSCRIBER_PACK_BONUS_RATE * 100);

function buttonLabel(card: OfferCard): string {
  if (card.offer.kind === 'pack') return 'Acheter';
  if (card.planState === 'upgrade') return 'Passer à Pro';
  if (card.planState === 'current') return 'Prolonger';
  return 'S’abonner';
}

/** One offer: price, credits with the subscriber bonus and the crypto extra, and its button (`locked` while another offer's checkout is being prepared). */
export function OfferCardView({ card, busy, locked = false, onBuy }: { card: OfferCard; busy: boolean; locked?: boolean; onBuy: () => void }) {
  const { offer } = card;
  const subscription = offer.kind === 'subscription';
  const Icon = subscription ? (offer.priority ? Crown : Rocket) : offer.bonus ? Gift : offer.credits >= 25 ? Zap : Coins;
  return (
    <article className={`card offer-card${card.planState === 'current' ? ' offer-current' : ''}`} data-testid={`offer-${offer.id}`}>
      <div className="offer-head">
        <Icon size={20} aria-hidden="true" />
        <h3>{offer.label}</h3>
        {offer.bonus ? <span className="badge badge-active">Bonus</span> : null}
        {card.planState === 'current' ? <span className="badge badge-active">Actuel</span> : null}
      </div>
      <p className="offer-price" data-testid="offer-price">
        {euros(card.priceCents)}
        {subscription ? <span className="muted small"> / mois</span> : null}
      </p>
      <ul className="offer-lines">
        <li data-testid="offer-credits">
          <strong>{card.credits} crédits</strong>
          {subscription ? ' par période de 30 jours' : null}
        </li>
        {card.bonus > 0 ? <li className="ok-text small">dont {card.bonus} de bonus abonné (+{BONUS_PERCENT} %)</li> : null}
        {card.cryptoExtra > 0 ? <li className="ok-text small">dont {card.cryptoExtra} offert{card.cryptoExtra > 1 ? 's' : ''} en crypto</li> : null}
        {subscription ? (
          <>
            <li className="small">+{BONUS_PERCENT} % de crédits sur les packs</li>
            <li className="small">Renouvelé tous les {offer.periodDays} jours</li>
            {offer.priority ? <li className="small">Priorité sur les backtests</li> : null}
          </>
        ) : (
          <li className="small muted">Crédits sans expiration</li>
        )}
      </ul>
      <button type="button" className="btn btn-primary btn-block" disabled={busy || locked || card.unavailable !== null} onClick={onBuy} data-testid={`buy-${offer.id}`}>
        {busy ? 'Redirection…' : buttonLabel(card)}
      </button>
      {card.unavailable ? (
        <p className="muted small offer-note" data-testid="offer-unavailable">
          {card.unavailable}
        </p>
      ) : null}
    </article>
  );
}
