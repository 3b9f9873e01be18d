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
  // Crosses with real data in fixtures/freqtrade (fixtures/README.md).
  'ETH-BTC': {
    kind: 'cryptomonnaie, cotée en bitcoins',
    summary: 'L’ether coté en bitcoins : combien de bitcoins vaut un ether. La paire ne dit rien du dollar ; elle mesure la force relative des deux premières cryptomonnaies, qui monte quand l’ether fait mieux que le bitcoin.',
    pipValue: '1 pip = 0,000001 BTC par ether détenu : 0,01 BTC pour 10 000 ETH. La valeur en dollars suit le cours du bitcoin.',
    sessions: ALWAYS_OPEN,
    volatility: 'Modérée à élevée : plus calme que chacune des deux cryptomonnaies contre le dollar, les grands mouvements du marché touchant souvent les deux.',
    notes: ['Les gains et pertes sont en bitcoins : un trade gagnant en BTC peut perdre en dollars si le bitcoin baisse pendant ce temps.'],
    advice: ['Compare avec ETH-USD et BTC-USD : une stratégie qui gagne sur la paire croisée capte la force relative, pas la tendance du marché.', WEEKEND_ADVICE],
  },
  'XRP-ETH': {
    kind: 'cryptomonnaie, cotée en ethers',
    summary: 'Le XRP, jeton du registre XRP Ledger lié à la société Ripple, coté en ethers. La paire mesure la force relative du XRP face à l’ether ; sa liquidité est bien plus faible que celle des paires en dollars ou en stablecoin.',
    pipValue: '1 pip = 0,0000001 ETH par XRP détenu : 0,001 ETH pour 10 000 XRP. La valeur en dollars suit le cours de l’ether.',
    sessions: ALWAYS_OPEN,
    volatility: 'Élevée et irrégulière : peu d’échanges, donc des bougies vides ou très étirées selon les heures.',
    notes: ['Le XRP réagit fortement à l’actualité judiciaire et réglementaire de Ripple, notamment la procédure engagée par la SEC américaine en décembre 2020.'],
    advice: ['Vérifie le nombre de trades : sur un marché aussi peu liquide, quelques bougies extrêmes peuvent faire tout le résultat.', WEEKEND_ADVICE],
  },
  'XRP-USDT': {
    kind: 'cryptomonnaie, cotée en tether (stablecoin indexé sur le dollar)',
    summary: 'Le XRP coté en tether (USDT), le plus grand stablecoin, conçu pour valoir un dollar. C’est en pratique le cours du XRP en dollars sur les plateformes crypto, sensible à l’actualité de Ripple et au sentiment général du marché.',
    pipValue: '1 pip = 0,0001 USDT par XRP détenu : 1 USDT pour 10 000 XRP.',
    sessions: ALWAYS_OPEN,
    volatility: 'Élevée, avec des bonds lors des décisions de justice et des annonces réglementaires concernant Ripple.',
    notes: ['L’USDT vise la parité avec le dollar sans la garantir : en temps normal l’écart est minime.'],
    advice: [SIZE_ADVICE, WEEKEND_ADVICE],
  },
};
