/**
 * Stock index sheets. The pip is one index point (docs/catalogue.md); what a point is worth is a
 * fact of each futures contract, while a CFD's value per point is set by the broker.
 */
import type { PairSheet } from './types.js';

const VIX = 'Repère de volatilité (voir le glossaire) : un VIX au-dessus de 20 signale un marché sous tension, en dessous de 15 un marché calme.';
const CFD = 'En CFD, la valeur d’un point est fixée par le courtier pour un lot : vérifie-la dans sa fiche produit.';
const US_HOURS = 'Séance au comptant de 09 h 30 à 16 h heure de New York (14 h 30–21 h UTC l’hiver, 13 h 30–20 h UTC l’été), colonnes Londres/New York et New York de bt ; les contrats à terme cotent presque 24 h sur 24 du dimanche soir au vendredi soir.';
const EUREX = 'les contrats à terme sur Eurex cotent de la nuit (vers 01 h) jusqu’à 22 h heure de Paris';
const US_ADVICE = 'Compare les résultats de l’ouverture (14 h 30–15 h 30 UTC l’hiver) au reste de la séance : l’ouverture concentre souvent les plus grands mouvements.';
const GAP_ADVICE = 'Les écarts d’ouverture (gaps) après la nuit ou le week-end déplacent le prix sans transition : une entrée au toucher peut être remplie au prix d’ouverture, au-delà de l’ordre.';
const EARNINGS = 'Saisons de résultats (fin janvier, avril, juillet, octobre) : les publications des plus grandes capitalisations déplacent tout l’indice.';

export const INDEX_SHEETS: Readonly<Record<string, PairSheet>> = {
  US500: {
    kind: 'indice actions américain (500 grandes entreprises, pondéré par la capitalisation flottante)',
    summary: 'Le S&P 500 regroupe 500 grandes entreprises cotées aux États-Unis, pondérées par leur capitalisation boursière flottante : la référence de la bourse américaine. Il réagit à la Fed, à l’inflation, à l’emploi et aux résultats des grandes capitalisations technologiques.',
    pipValue: `1 pip = 1 point d’indice, soit 50 USD sur le contrat E-mini S&P 500 (ES) et 5 USD sur le Micro E-mini (MES). ${CFD}`,
    sessions: US_HOURS,
    volatility: `Modérée pour un indice, avec des pics aux annonces de la Fed, au CPI et au NFP. ${VIX}`,
    notes: ['Le VIX est calculé par le Cboe à partir des options sur le S&P 500 : il mesure la volatilité attendue par le marché sur 30 jours.', EARNINGS],
    advice: [US_ADVICE, GAP_ADVICE],
  },
  US30: {
    kind: 'indice actions américain (30 valeurs, pondéré par le prix)',
    summary: 'Le Dow Jones Industrial Average suit 30 grandes entreprises américaines. Il est pondéré par le prix des actions et non par la capitalisation : une action chère pèse plus qu’une grande entreprise dont l’action vaut moins.',
    pipValue: `1 pip = 1 point d’indice, soit 5 USD sur le contrat E-mini Dow (YM) et 0,50 USD sur le Micro E-mini (MYM). ${CFD}`,
    sessions: US_HOURS,
    volatility: `Modérée, mais ses points sont nombreux : un même mouvement en pourcentage fait bien plus de points que sur le S&P 500. ${VIX}`,
    notes: ['Le plus ancien des grands indices américains (1896).', EARNINGS],
    advice: ['Avec un indice à plusieurs dizaines de milliers de points, un SL de 100 points est serré : vérifie la part du prix qu’il représente.', GAP_ADVICE],
  },
  NAS100: {
    kind: 'indice actions américain (100 valeurs non financières du Nasdaq)',
    summary: 'Le Nasdaq-100 regroupe les 100 plus grandes entreprises non financières cotées au Nasdaq, très concentré sur la technologie. Il est plus sensible que le S&P 500 aux taux d’intérêt et aux résultats des géants du numérique.',
    pipValue: `1 pip = 1 point d’indice, soit 20 USD sur le contrat E-mini Nasdaq-100 (NQ) et 2 USD sur le Micro E-mini (MNQ). ${CFD}`,
    sessions: US_HOURS,
    volatility: `Élevée pour un indice, avec des pics aux résultats des grandes valeurs technologiques et aux publications d’inflation. ${VIX}`,
    notes: [EARNINGS],
    advice: [US_ADVICE, GAP_ADVICE],
  },
  GER40: {
    kind: 'indice actions allemand (40 valeurs)',
    summary: 'Le DAX suit les 40 plus grandes entreprises cotées à la bourse de Francfort (30 jusqu’en septembre 2021). C’est un indice de performance : les dividendes y sont réinvestis. Industrie, automobile et chimie y pèsent lourd, ce qui le rend sensible à la Chine et au commerce mondial.',
    pipValue: `1 pip = 1 point d’indice, soit 25 EUR sur le contrat Eurex FDAX, 5 EUR sur le Mini-DAX et 1 EUR sur le Micro-DAX. ${CFD}`,
    sessions: `Séance Xetra de 09 h à 17 h 30 heure de Paris (08–16 h 30 UTC l’hiver) ; ${EUREX}.`,
    volatility: `Modérée à élevée ; l’ouverture de 09 h (Paris) et la séance de l’après-midi, quand New York ouvre, sont les plus agitées. ${VIX}`,
    notes: ['Le cours du CFD suit en général le contrat à terme, qui cote bien avant l’ouverture de Xetra.'],
    advice: ['Compare la première heure de Xetra au reste de la journée dans ton classeur (feuille des heures).', GAP_ADVICE],
  },
  UK100: {
    kind: 'indice actions britannique (100 valeurs)',
    summary: 'Le FTSE 100 regroupe les 100 plus grandes capitalisations de la Bourse de Londres. Beaucoup de ses entreprises (énergie, mines, pharmacie, banques) réalisent l’essentiel de leur chiffre d’affaires hors du Royaume-Uni : une livre faible tend à le soutenir.',
    pipValue: `1 pip = 1 point d’indice, soit 10 GBP sur le contrat à terme FTSE 100 d’ICE. ${CFD}`,
    sessions: 'Séance de 08 h à 16 h 30 heure de Londres (colonnes Londres et Londres/New York de bt) ; les contrats à terme cotent aussi en dehors.',
    volatility: `Plutôt modérée pour un indice européen, liée aux prix du pétrole et des métaux. ${VIX}`,
    notes: ['Les poids lourds du pétrole et des mines le rendent sensible aux matières premières.'],
    advice: [GAP_ADVICE],
  },
  FRA40: {
    kind: 'indice actions français (40 valeurs)',
    summary: 'Le CAC 40 suit 40 grandes entreprises cotées sur Euronext Paris. Le luxe, l’énergie, l’industrie et la banque y pèsent lourd : il réagit à la consommation chinoise, à la BCE et à l’actualité politique française.',
    pipValue: `1 pip = 1 point d’indice, soit 10 EUR sur le contrat à terme CAC 40 d’Euronext. ${CFD}`,
    sessions: 'Séance de 09 h à 17 h 30 heure de Paris (08–16 h 30 UTC l’hiver) ; l’ouverture et l’arrivée de New York (15 h 30, heure de Paris) sont les moments les plus actifs.',
    volatility: `Modérée à élevée, proche de celle du DAX. ${VIX}`,
    notes: ['Contrairement au DAX, c’est un indice de prix : le détachement des dividendes (surtout au printemps) fait baisser l’indice mécaniquement.'],
    advice: [GAP_ADVICE],
  },
  EU50: {
    kind: 'indice actions de la zone euro (50 valeurs)',
    summary: 'L’Euro Stoxx 50 regroupe 50 grandes entreprises de la zone euro. C’est la référence européenne des produits dérivés ; il réagit à la BCE, aux chiffres d’inflation et aux tensions sur les dettes souveraines.',
    pipValue: `1 pip = 1 point d’indice, soit 10 EUR sur le contrat Eurex FESX. ${CFD}`,
    sessions: `Séance au comptant de 09 h à 17 h 30 heure de Paris ; ${EUREX}.`,
    volatility: `Modérée à élevée ; le VSTOXX est son équivalent du VIX. ${VIX}`,
    notes: ['Son contrat à terme sur Eurex (FESX) est l’un des contrats sur indice les plus échangés d’Europe.'],
    advice: [GAP_ADVICE],
  },
  JPN225: {
    kind: 'indice actions japonais (225 valeurs, pondéré par le prix)',
    summary: 'Le Nikkei 225 suit 225 valeurs de la Bourse de Tokyo, pondérées par le prix comme le Dow Jones. Beaucoup d’exportateurs y figurent : un yen faible tend à le soutenir.',
    pipValue: `1 pip = 1 point d’indice, soit 1 000 JPY sur le grand contrat d’Osaka, 100 JPY sur le contrat mini et 5 USD sur le contrat en dollars du CME. ${CFD}`,
    sessions: 'Séance de Tokyo de 09 h à 15 h 30 heure de Tokyo, avec une pause de 11 h 30 à 12 h 30 (00–06 h 30 UTC, colonne Asie de bt) ; les contrats à terme cotent aussi la nuit et suivent Wall Street.',
    volatility: `Élevée pour un indice, et sensible aux variations du yen. ${VIX}`,
    notes: ['La séance de Tokyo ferme à 15 h 30 depuis novembre 2024 (15 h auparavant).', 'Le Japon ne change pas d’heure : en UTC, la séance est la même toute l’année.'],
    advice: ['Compare la session Asie au reste de la journée : en dehors de Tokyo, l’indice suit surtout les contrats à terme et Wall Street.', GAP_ADVICE],
  },
  AUS200: {
    kind: 'indice actions australien (200 valeurs)',
    summary: 'Le S&P/ASX 200 suit les 200 plus grandes entreprises cotées à Sydney. Banques et groupes miniers y dominent : il dépend des prix des matières premières, de la Chine et de la RBA.',
    pipValue: `1 pip = 1 point d’indice, soit 25 AUD sur le contrat à terme SPI 200. ${CFD}`,
    sessions: 'Séance de 10 h à 16 h heure de Sydney (00–06 h UTC en hiver austral, 23–05 h UTC en été austral), colonne Asie de bt.',
    volatility: `Plutôt modérée pour un indice. ${VIX}`,
    notes: ['L’Australie change d’heure à l’inverse de l’Europe : l’écart avec Paris varie de 8 à 10 heures selon la saison.'],
    advice: [GAP_ADVICE],
  },
};
