import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Bitcoin, CreditCard, Wallet } from 'lucide-react';
import { ConnectPrompt } from '../../components/ConnectPrompt.js';
import { PageMeta } from '../../components/PageMeta.js';
import { METHODS, euros, offerCards, readMethods, type MethodAvailability, type PaymentMethod } from '../../features/payments/offers.js';
import { LAST_OFFER_STORAGE, PAYMENT_MESSAGES, paymentErrorMessage, readPaymentReturn, rememberConfirmedPayment, type Purchase } from '../../features/payments/payments.js';
import { handlePaymentReturn, type ReturnOutcome } from '../../features/payments/returns.js';
import { CRYPTO_CREDIT_10_EXTRA, CRYPTO_MIN_PRICE_CENTS, OFFERS } from '../../lib/catalogue.js';
import { payments, session, storage, tabStorage, toasts } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { OfferCardView } from './OfferCardView.js';
import { PaymentSuccessDialog } from './PaymentSuccessDialog.js';
import './pricing.css';

const METHOD_ICONS = { stripe: CreditCard, paypal: Wallet, crypto: Bitcoin } as const;
const NO_METHODS: MethodAvailability = { stripe: false, paypal: false, crypto: false };

type Notice = { kind: 'error' | 'info'; text: string } | null;

const PRICING_MESSAGES = {
  // Ours (the spec gives none): the methods could not be read, which is not "no method here".
  methodsFailed: 'Impossible de charger les moyens de paiement. Vérifie ta connexion, puis recharge la page.',
} as const;

/** Starts a payment: the provider's page address, or the product's message when it is missing. */
async function checkoutUrl(method: PaymentMethod, offerId: string): Promise<string> {
  if (method === 'stripe') {
    const answer = await payments.stripeSession(offerId);
    if (!answer.url) throw new Error(PAYMENT_MESSAGES.stripeUrlMissing);
    return answer.url;
  }
  if (method === 'paypal') {
    const answer = await payments.paypalCreateOrder(offerId);
    if (!answer.id || !answer.approve_url) throw new Error(PAYMENT_MESSAGES.paypalTokenMissing);
    return answer.approve_url;
  }
  const answer = await payments.cryptoCreateOrder(offerId);
  if (!answer.payment_url) throw new Error(PAYMENT_MESSAGES.cryptoUrlMissing);
  return answer.payment_url;
}

/** /pricing (docs/web.md "Pricing"): packs and subscriptions, the method choice, the return of a payment. */
export default function PricingPage() {
  const { key, user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [methods, setMethods] = useState<MethodAvailability | null>(null);
  // The methods call failed: no method is offered, but saying the server has none would be false.
  const [methodsFailed, setMethodsFailed] = useState(false);
  const [method, setMethod] = useState<PaymentMethod>('stripe');
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [prompt, setPrompt] = useState(false);
  const [success, setSuccess] = useState<{ purchase: Purchase; invoiceUrl: string | null } | null>(null);

  useEffect(() => {
    let live = true;
    payments.methods().then(
      (answer) => {
        if (!live) return;
        const read = readMethods(answer);
        setMethods(read);
        setMethod((current) => (read[current] ? current : (METHODS.find((m) => read[m.id])?.id ?? current)));
      },
      () => {
        if (!live) return;
        setMethods(NO_METHODS);
        setMethodsFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, []);

  // The provider's return parameters: read once, removed from the address at once. The handling
  // lives in a ref, so React's development double mount neither runs it twice nor loses it.
  const handling = useRef<Promise<ReturnOutcome | null> | null>(null);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    if (!handling.current) {
      const { ret, search, changed } = readPaymentReturn(location.search);
      if (changed) navigate({ pathname: location.pathname, search, hash: location.hash }, { replace: true });
      if (ret?.status === 'success') setNotice({ kind: 'info', text: 'Confirmation du paiement…' });
      handling.current = ret
        ? handlePaymentReturn(ret, {
            capture: (orderId, offerId) => payments.paypalCaptureOrder(orderId, offerId),
            status: (payment, reference) => payments.status(payment, reference),
            cancel: (payment, reference) => payments.cancel(payment, reference),
            storage,
            wait: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
            live: () => mounted.current,
          })
        : Promise.resolve(null);
    }
    let live = true;
    void handling.current.then(async (outcome) => {
      if (!live || !outcome) return;
      if (outcome.kind === 'paid') {
        rememberConfirmedPayment(tabStorage, outcome.purchase.reference);
        setNotice(null);
        await session.refresh();
        toasts.show(outcome.message, 'success');
        setSuccess({ purchase: outcome.purchase, invoiceUrl: outcome.invoicePath ? payments.invoiceUrl(outcome.invoicePath) : null });
      } else if (outcome.kind === 'cancelled') {
        setNotice(null);
        toasts.show(outcome.message, 'info');
      } else setNotice({ kind: outcome.kind === 'error' ? 'error' : 'info', text: outcome.message });
    });
    return () => {
      live = false;
      mounted.current = false;
    };
    // Once per visit: the parameters are gone after the first run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const plan = typeof user?.plan === 'string' ? user.plan : 'free';
  const autoRenew = (user?.subscription as { auto_renew?: unknown } | undefined)?.auto_renew === true;
  const cards = useMemo(() => offerCards(method, plan, methods ?? NO_METHODS, autoRenew), [method, plan, methods, autoRenew]);

  // One checkout at a time: a second offer clicked while the first was being prepared made two
  // orders and overwrote lastOfferId, so the PayPal capture of the first was refused as another
  // offer's. The ref answers at once, before React has disabled the buttons.
  const checkingOut = useRef(false);
  // Back from the provider's page, the browser may show this page from its cache, buttons still
  // off ('Redirection…'): give them back.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      checkingOut.current = false;
      setBusy(null);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  async function buy(offerId: string) {
    if (!key) {
      setPrompt(true);
      return;
    }
    if (checkingOut.current) return;
    checkingOut.current = true;
    setBusy(offerId);
    setNotice(null);
    storage.setItem(LAST_OFFER_STORAGE, offerId);
    try {
      window.location.assign(await checkoutUrl(method, offerId));
    } catch (error) {
      checkingOut.current = false;
      setBusy(null);
      setNotice({ kind: 'error', text: error instanceof Error && !('status' in error) ? error.message : paymentErrorMessage(error) });
    }
  }

  const cryptoTen = OFFERS.find((o) => o.id === 'CREDIT_10');
  return (
    <section className="pricing-page">
      <PageMeta title="Tarifs" />
      <header className="page-head">
        <h1>Tarifs</h1>
        <p className="muted">Des crédits pour tes backtests (2 crédits) et tes CSV (1 crédit) : en packs, sans expiration, ou chaque mois avec un abonnement.</p>
      </header>
      {notice ? (
        <p className={`alert ${notice.kind === 'error' ? 'alert-error' : 'alert-info'}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="pricing-notice">
          {notice.text}
        </p>
      ) : null}

      <div className="method-picker" role="radiogroup" aria-label="Moyen de paiement" data-testid="method-picker">
        {METHODS.map(({ id, label }) => {
          const Icon = METHOD_ICONS[id];
          const off = methods !== null && !methods[id];
          return (
            <button key={id} type="button" role="radio" aria-checked={method === id} className={`btn method-option${method === id ? ' active' : ''}`} disabled={off} onClick={() => setMethod(id)} data-testid={`method-${id}`}>
              <Icon size={18} aria-hidden="true" />
              {label}
              {off ? <span className="muted small">(indisponible)</span> : null}
            </button>
          );
        })}
      </div>
      {methods === null ? <p className="muted small">Chargement des moyens de paiement…</p> : null}
      {methodsFailed ? (
        <p className="alert alert-error" role="alert" data-testid="methods-error">
          {PRICING_MESSAGES.methodsFailed}
        </p>
      ) : methods !== null && !methods.stripe && !methods.paypal && !methods.crypto ? (
        <p className="alert alert-info" role="status">Le paiement en ligne n’est pas disponible sur ce serveur pour le moment.</p>
      ) : null}

      <h2>Packs de crédits</h2>
      <div className="offer-grid" data-testid="pack-grid">
        {cards.filter((c) => c.offer.kind === 'pack').map((card) => (
          <OfferCardView key={card.offer.id} card={card} busy={busy === card.offer.id} locked={busy !== null} onBuy={() => void buy(card.offer.id)} />
        ))}
      </div>
      <h2>Abonnements</h2>
      <div className="offer-grid" data-testid="subscription-grid">
        {cards.filter((c) => c.offer.kind === 'subscription').map((card) => (
          <OfferCardView key={card.offer.id} card={card} busy={busy === card.offer.id} locked={busy !== null} onBuy={() => void buy(card.offer.id)} />
        ))}
      </div>
      <ul className="pricing-notes muted small">
        <li>Abonnés Starter et Pro : 10 % de crédits en plus sur chaque pack (arrondi au supérieur).</li>
        <li>
          Crypto : à partir de {euros(CRYPTO_MIN_PRICE_CENTS)} ; le {cryptoTen?.label ?? 'pack CREDIT_10'} y coûte 10,50 € avec {CRYPTO_CREDIT_10_EXTRA.free} crédit de plus ({CRYPTO_CREDIT_10_EXTRA.subscriber} pour les abonnés).
        </li>
        <li>Carte et PayPal : un abonnement se renouvelle tous les 30 jours jusqu’à sa résiliation (profil). En crypto, chaque paiement couvre 30 jours.</li>
        <li>Les crédits n’expirent pas et ne sont pas remboursables une fois consommés. Une facture est émise pour chaque paiement.</li>
      </ul>

      {prompt ? <ConnectPrompt reason={PAYMENT_MESSAGES.signUpToBuy} onClose={() => setPrompt(false)} /> : null}
      {success ? <PaymentSuccessDialog purchase={success.purchase} invoiceUrl={success.invoiceUrl} onClose={() => setSuccess(null)} /> : null}
    </section>
  );
}
