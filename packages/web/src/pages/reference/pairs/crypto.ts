/**
 * Crypto sheets. No pip convention exists: bt's pip is a price step chosen per instrument
 * (docs/catalogue.md), worth that step per coin held.
 */
import type { PairSheet } from './types.js';

const ALWAYS_OPEN = 'Cotation 24 h sur 24, 7 jours sur 7 : les colonnes de toutes les heures et du week-end de bt sont remplies. Le volume reste plus fort quand l’Europe et les États-Unis sont ouverts (colonnes Londres et New York).';
const WEEKEND_ADVICE = 'Regarde la feuille des jours : le week-end, le volume baisse et le comportement des zones peut changer.';
const SIZE_ADVICE = 'Un pip vaut une petite fraction du prix : 100 pips par défaut représentent un stop serré pour un actif aussi volatil ; compare avec le SL interne.';

export const CRYPTO_SHEETS: Readonly<Record<string, PairSheet>> = {
  'BTC-USD': {
    kind: 'cryptomonnaie, cotée en dollars',
    summary: 'Le bitcoin contre le dollar. Son offre est plafonnée à 21 millions d’unités et la création de nouveaux bitcoins est divisée par deux environ tous les quatre ans (le « halving », le dernier en avril 2024). Son cours dépend de la liquidité mondiale, de la réglementation, des flux des fonds cotés et de l’appétit pour le risque.',
    pipValue: '1 pip = 1 USD par bitcoin détenu : 0,10 USD pour 0,1 BTC, 5 USD sur le contrat à terme du CME (5 BTC).',
    sessions: ALWAYS_OPEN,
    volatility: 'Élevée, bien plus que les devises et les indices, avec des mouvements brusques aux annonces réglementaires et macroéconomiques américaines.',
    notes: ['Les fonds cotés (ETF) au comptant sur le bitcoin sont autorisés aux États-Unis depuis janvier 2024.', 'Il n’existe pas de cours unique : les prix diffèrent légèrement d’une plateforme à l’autre, et un backtest sur les données d’une plateforme peut différer un peu de ce que tu verrais sur une autre.'],
    advice: [SIZE_ADVICE, WEEKEND_ADVICE],
  },
  'ETH-USD': {
    kind: 'cryptomonnaie, cotée en dollars',
    summary: 'L’ether, la cryptomonnaie du réseau Ethereum, contre le dollar. Il sert à payer les transactions et les contrats du réseau ; depuis « The Merge » (septembre 2022), Ethereum fonctionne en preuve d’enjeu. Son cours suit en grande partie celui du bitcoin, avec des moteurs propres : activité du réseau, mises à jour, staking.',
    pipValue: '1 pip = 0,10 USD par ether détenu : 5 USD sur le contrat à terme du CME (50 ETH).',
    sessions: ALWAYS_OPEN,
    volatility: 'Élevée, en général plus encore que le bitcoin.',
    notes: ['Les fonds cotés (ETF) au comptant sur l’ether sont autorisés aux États-Unis depuis juillet 2024.'],
    advice: [SIZE_ADVICE, WEEKEND_ADVICE],
  },
};
