/** Every French sentence of the payment routes (docs/api.md "Payments"). */
import { CRYPTO_CREDIT_10_PRICE_CENTS, CRYPTO_MIN_PRICE_CENTS, OFFERS } from '@bt/core/catalogue';
import { euros } from './money.js';

export const METHOD_LABELS = { stripe: 'Stripe', paypal: 'PayPal', crypto: 'crypto' } as const;

export const PAY_MSG = {
  methodUnavailable: (method: keyof typeof METHOD_LABELS) => `Le paiement par ${METHOD_LABELS[method]} n'est pas configuré sur ce serveur.`,
  offerMissing: 'Choisis une offre (offer_id).',
  offerUnknown: (id: string) => `Offre inconnue : « ${id} » (${OFFERS.map((o) => o.id).join(', ')}).`,
  cryptoBelowMinimum: `Paiement crypto indisponible pour cette offre : minimum ${euros(CRYPTO_MIN_PRICE_CENTS)} (le pack CREDIT_10 passe à ${euros(CRYPTO_CREDIT_10_PRICE_CENTS)}).`,
  currencyInvalid: (value: string) => `Crypto-monnaie invalide : « ${value} » (par exemple usdttrc20).`,
  tokenMismatch: 'Jeton utilisateur invalide : il ne correspond pas à ta session.',
  alreadySubscribed: (label: string) => `Tu es déjà abonné à ${label} : l’abonnement se renouvelle tout seul.`,
  alreadyPaidUntil: (label: string, day: string) =>
    `Ton abonnement ${label} est déjà payé jusqu’au ${day} : un abonnement par carte commencerait aujourd’hui et les jours déjà payés seraient perdus. Souscris-le par carte à partir du ${day}, ou prolonge-le de 30 jours par un paiement sans renouvellement automatique.`,
  noDowngrade: 'Tu es abonné à Pro : résilie-le, puis choisis Starter une fois la période terminée.',
  providerFailed: (method: keyof typeof METHOD_LABELS) => `${method === 'crypto' ? 'Le service de paiement crypto' : METHOD_LABELS[method]} ne répond pas : paiement non créé. Réessaie dans un instant.`,
  orderMissing: 'Commande PayPal manquante (orderID).',
  paymentNotFound: 'Paiement introuvable.',
  returnInvalid: 'Retour de paiement invalide : payment (stripe, paypal ou crypto) et sa référence (session_id ou token) attendus.',
  offerMismatch: 'L’offre ne correspond pas à ce paiement.',
  captureFailed: (issue: string | null) => `Capture échouée${issue ? ` : PayPal a refusé le paiement (${issue})` : ''}.`,
  captureUnreachable: 'PayPal ne répond pas : capture non confirmée. Réessaie dans un instant.',
  amountMismatch: (received: number | null, expected: number) =>
    `Montant reçu (${received === null ? 'illisible' : euros(received)}) différent du prix de l’offre (${euros(expected)}) : paiement refusé.`,
  currencyMismatch: (received: string, expected: string) => `Devise reçue (${received || 'aucune'}) différente de celle de l’offre (${expected}) : paiement refusé.`,
  badSignature: 'Signature invalide.',
  callbackTooLarge: 'Notification trop volumineuse.',
  unknownPayment: 'Paiement inconnu.',
  accountGone: 'Compte supprimé : paiement à rembourser.',
  confirmed: (credits: number) => `Paiement confirmé : ${credits} crédit${credits > 1 ? 's' : ''} ajouté${credits > 1 ? 's' : ''}.`,
  pending: 'Paiement en attente de confirmation.',
  paypalPending: 'Paiement en attente chez PayPal : les crédits sont ajoutés dès que PayPal le confirme.',
  cancelled: 'Paiement annulé.',
  invoiceNotFound: 'Facture introuvable.',
  creditNoteNotFound: 'Avoir introuvable.',
  stripeUnreachable: 'Stripe ne répond pas : résiliation impossible pour l’instant. Réessaie dans un instant.',
  reversalBeforePayment: 'Paiement pas encore confirmé : remboursement ou contestation à renvoyer plus tard.',
  paypalWebhookUnconfigured: 'Webhook PayPal non configuré sur ce serveur (PAYPAL_WEBHOOK_ID) : notification à renvoyer.',
  paypalUnreachable: 'PayPal ne répond pas : notification non vérifiée, à renvoyer.',
  stripeStateUnreachable: 'Stripe ne répond pas : état de l’abonnement inconnu, notification à renvoyer.',
} as const;
