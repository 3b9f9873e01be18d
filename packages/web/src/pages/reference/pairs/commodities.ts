/**
 * Metal, energy and agricultural sheets. The pip is one tick of the reference futures contract
 * (docs/catalogue.md "How pip sizes were chosen"), so its value per contract is a fact of that
 * contract's specification; a CFD's value depends on the size of the position.
 */
import type { PairSheet } from './types.js';

const GLOBEX = 'Cotation presque continue sur CME Globex, du dimanche 23 h au vendredi 22 h UTC (une heure plus tôt en été), avec une pause quotidienne d’une heure (22–23 h UTC, la colonne « Hors session » de bt).';
const ROLL = 'Selon la source, les cours sont ceux d’un CFD ou d’un contrat à terme continu : au changement d’échéance (roll), un écart de prix peut apparaître sans mouvement réel du marché.';
const CFD = (unit: string) => `En CFD, valeur d’un pip = taille du pip × nombre de ${unit} de ta position.`;
const NEWS_ADVICE = (what: string) => `Vérifie si tes meilleures heures coïncident avec ${what} : un résultat porté par quelques bougies d’annonce est fragile.`;
const SIZE_ADVICE = 'Les distances par défaut (SL 100 pips) ne représentent pas la même part du prix que sur le forex : convertis-les en prix avant de lancer un backtest.';

export const COMMODITY_SHEETS: Readonly<Record<string, PairSheet>> = {
  XAUUSD: {
    kind: 'métal précieux, coté en dollars par once troy',
    summary: 'L’or au comptant, en dollars par once troy (31,1 g). Actif refuge par excellence, il réagit aux taux d’intérêt réels américains, au dollar, aux tensions géopolitiques et aux achats des banques centrales.',
    pipValue: `1 pip = 0,10 USD par once, soit 10 USD sur le contrat COMEX de 100 onces (GC). ${CFD('onces')}`,
    sessions: `${GLOBEX} Le plus actif pendant Londres (fixations LBMA de 10 h 30 et 15 h, heure de Londres) et le chevauchement Londres/New York.`,
    volatility: 'Modérée à élevée, avec des pics aux décisions de la Fed, au NFP, aux chiffres d’inflation américains et lors des crises.',
    notes: ['Un dollar plus fort et des taux réels en hausse pèsent en général sur l’or, qui ne verse pas d’intérêt.', ROLL],
    advice: [NEWS_ADVICE('les chiffres américains de 14 h 30 (heure de Paris)'), SIZE_ADVICE],
  },
  XAGUSD: {
    kind: 'métal précieux et industriel, coté en dollars par once troy',
    summary: 'L’argent, en dollars par once troy. À la fois métal précieux qui suit souvent l’or, et métal industriel (électronique, panneaux photovoltaïques), il amplifie en général les mouvements de l’or.',
    pipValue: `1 pip = 0,005 USD par once, soit 25 USD sur le contrat COMEX de 5 000 onces (SI). ${CFD('onces')}`,
    sessions: `${GLOBEX} Le plus actif pendant Londres (fixation LBMA de midi, heure de Londres) et New York.`,
    volatility: 'Élevée, nettement plus nerveuse que l’or à mouvement égal du marché.',
    notes: ['Le rapport or/argent (combien d’onces d’argent pour une once d’or) est suivi par beaucoup de traders pour comparer les deux métaux.', ROLL],
    advice: [NEWS_ADVICE('les publications américaines'), SIZE_ADVICE],
  },
  XPTUSD: {
    kind: 'métal précieux industriel, coté en dollars par once troy',
    summary: 'Le platine, en dollars par once troy. Sa demande vient surtout des pots catalytiques (moteurs diesel), de l’industrie et de la joaillerie ; son offre est concentrée en Afrique du Sud et en Russie.',
    pipValue: `1 pip = 0,10 USD par once, soit 5 USD sur le contrat NYMEX de 50 onces (PL). ${CFD('onces')}`,
    sessions: `${GLOBEX} Le plus actif pendant Londres et New York.`,
    volatility: 'Élevée, avec une liquidité bien plus faible que l’or : écarts plus larges, mouvements heurtés.',
    notes: ['Les grèves et les coupures d’électricité en Afrique du Sud pèsent sur l’offre et peuvent faire bouger le cours.', ROLL],
    advice: [SIZE_ADVICE, 'Marché moins liquide : préfère H1 ou H4 aux petites unités de temps, où le bruit domine.'],
  },
  XPDUSD: {
    kind: 'métal précieux industriel, coté en dollars par once troy',
    summary: 'Le palladium, en dollars par once troy. Il sert surtout aux pots catalytiques des moteurs à essence ; la Russie et l’Afrique du Sud fournissent l’essentiel de la production minière.',
    pipValue: `1 pip = 0,10 USD par once, soit 10 USD sur le contrat NYMEX de 100 onces (PA). ${CFD('onces')}`,
    sessions: `${GLOBEX} Le plus actif pendant Londres et New York.`,
    volatility: 'Très élevée et marché étroit : des variations brutales sont fréquentes.',
    notes: ['Un petit marché : quelques ordres importants suffisent à déplacer le cours.', ROLL],
    advice: [SIZE_ADVICE, 'Marché étroit : préfère H1 ou H4 aux petites unités de temps.'],
  },
  COPPER: {
    kind: 'métal industriel, coté en dollars par livre (lb)',
    summary: 'Le cuivre, en dollars par livre. Présent dans la construction, l’électricité et l’électronique, il est surnommé « Dr. Copper » pour sa sensibilité à la conjoncture mondiale ; la Chine en est le premier consommateur, le Chili et le Pérou les premiers producteurs.',
    pipValue: `1 pip = 0,0005 USD par livre, soit 12,50 USD sur le contrat COMEX de 25 000 livres (HG). ${CFD('livres')}`,
    sessions: `${GLOBEX} Actif en session Asie (Shanghai), à Londres (London Metal Exchange) et à New York.`,
    volatility: 'Modérée à élevée, liée aux statistiques chinoises (production industrielle, PMI) et aux perturbations des mines.',
    notes: ['Deux marchés de référence : le COMEX (en dollars par livre) et le London Metal Exchange (en dollars par tonne).', ROLL],
    advice: [NEWS_ADVICE('les statistiques chinoises (souvent publiées vers 01–02 h UTC)'), SIZE_ADVICE],
  },
  WTI: {
    kind: 'énergie, pétrole brut américain en dollars par baril',
    summary: 'Le West Texas Intermediate, pétrole brut de référence américain, livré à Cushing (Oklahoma). Il réagit aux décisions de l’OPEP+, aux stocks américains, à la géopolitique et à la croissance mondiale.',
    pipValue: `1 pip = 0,01 USD par baril, soit 10 USD sur le contrat NYMEX de 1 000 barils (CL). ${CFD('barils')}`,
    sessions: `${GLOBEX} Le plus actif pendant la séance de New York.`,
    volatility: 'Élevée ; pics au rapport hebdomadaire de l’EIA sur les stocks (mercredi 10 h 30, heure de New York) et aux réunions de l’OPEP+.',
    notes: ['Le 20 avril 2020, le contrat WTI de mai a clôturé à un prix négatif, faute de capacités de stockage à Cushing : un rappel que les contrats à terme peuvent avoir des comportements extrêmes à l’échéance.', ROLL],
    advice: [NEWS_ADVICE('le rapport EIA du mercredi'), SIZE_ADVICE],
  },
  BRENT: {
    kind: 'énergie, pétrole brut de la mer du Nord en dollars par baril',
    summary: 'Le Brent, pétrole de la mer du Nord et référence internationale pour la plupart des contrats pétroliers dans le monde. Même moteurs que le WTI, avec un poids plus grand de l’Europe, du Moyen-Orient et des routes maritimes.',
    pipValue: `1 pip = 0,01 USD par baril, soit 10 USD sur le contrat ICE de 1 000 barils. ${CFD('barils')}`,
    sessions: 'Coté sur ICE Futures Europe presque toute la journée, de 01 h à 23 h heure de Londres ; le plus actif pendant Londres et New York.',
    volatility: 'Élevée, avec des pics aux réunions de l’OPEP+, aux tensions au Moyen-Orient et aux stocks américains.',
    notes: ['L’écart Brent-WTI reflète le coût du transport et les équilibres régionaux ; les deux cours évoluent le plus souvent ensemble.', ROLL],
    advice: [NEWS_ADVICE('le rapport EIA du mercredi et les annonces de l’OPEP+'), SIZE_ADVICE],
  },
  NATGAS: {
    kind: 'énergie, gaz naturel américain en dollars par MMBtu',
    summary: 'Le gaz naturel américain (Henry Hub, Louisiane), en dollars par million de BTU. Son prix dépend surtout de la météo (chauffage l’hiver, climatisation l’été), des stocks et des exportations de GNL.',
    pipValue: `1 pip = 0,001 USD par MMBtu, soit 10 USD sur le contrat NYMEX de 10 000 MMBtu (NG). ${CFD('MMBtu')}`,
    sessions: `${GLOBEX} Le plus actif pendant la séance de New York.`,
    volatility: 'Très élevée, l’une des matières premières les plus volatiles ; pic au rapport de l’EIA sur les stocks (jeudi 10 h 30, heure de New York).',
    notes: ['Forte saisonnalité : les prévisions météo à deux semaines font souvent bouger le cours plus que l’actualité économique.', ROLL],
    advice: [NEWS_ADVICE('le rapport EIA du jeudi'), 'Volatilité extrême : compare tes résultats avec le SL interne, plus adapté aux zones qu’une distance fixe.'],
  },
  GASOLINE: {
    kind: 'énergie, essence RBOB en dollars par gallon',
    summary: 'L’essence RBOB livrée dans le port de New York, en dollars par gallon. Elle suit le pétrole brut, avec en plus les marges de raffinage et une forte saisonnalité (saison des départs en voiture l’été).',
    pipValue: `1 pip = 0,0001 USD par gallon, soit 4,20 USD sur le contrat NYMEX de 42 000 gallons (RB). ${CFD('gallons')}`,
    sessions: `${GLOBEX} Le plus actif pendant la séance de New York.`,
    volatility: 'Élevée, avec des pics lors des arrêts de raffineries et des ouragans dans le golfe du Mexique.',
    notes: ['La spécification du contrat change entre l’hiver et l’été (essence d’été moins volatile), ce qui peut créer un saut au changement d’échéance du printemps.', ROLL],
    advice: [NEWS_ADVICE('le rapport EIA du mercredi'), SIZE_ADVICE],
  },
  CORN: {
    kind: 'matière première agricole, en cents de dollar par boisseau',
    summary: 'Le maïs coté à Chicago (CBOT), en cents de dollar par boisseau. Ses moteurs : la météo dans le Midwest américain (la pollinisation de juillet est décisive), les rapports du ministère américain de l’Agriculture (USDA), l’éthanol et les récoltes du Brésil.',
    pipValue: '1 pip = 1/4 de cent par boisseau, soit 12,50 USD sur le contrat CBOT de 5 000 boisseaux (ZC).',
    sessions: 'CBOT : séance de jour de 08 h 30 à 13 h 20 heure de Chicago (14 h 30–19 h 20 UTC l’hiver), séance de nuit de 19 h à 07 h 45 (heure de Chicago), peu liquide.',
    volatility: 'Modérée hors saison, élevée pendant l’été de culture et aux rapports USDA (WASDE mensuel, surfaces de fin mars et fin juin).',
    notes: ['Les données contiennent de longues heures sans échange : la séance de nuit et l’interruption du matin.', ROLL],
    advice: ['Sur les petites unités de temps, les bougies de la séance de nuit contiennent peu d’échanges : préfère H1 ou H4.', NEWS_ADVICE('les rapports USDA (midi, heure de New York)')],
  },
  WHEAT: {
    kind: 'matière première agricole, en cents de dollar par boisseau',
    summary: 'Le blé tendre d’hiver coté à Chicago (CBOT), en cents par boisseau. Marché mondial : les récoltes de la Russie, de l’Union européenne, des États-Unis, du Canada, de l’Australie et de l’Ukraine, la météo et les politiques d’exportation le font bouger.',
    pipValue: '1 pip = 1/4 de cent par boisseau, soit 12,50 USD sur le contrat CBOT de 5 000 boisseaux (ZW).',
    sessions: 'CBOT : séance de jour de 08 h 30 à 13 h 20 heure de Chicago (14 h 30–19 h 20 UTC l’hiver), séance de nuit de 19 h à 07 h 45, peu liquide.',
    volatility: 'Modérée à élevée, très sensible aux chocs géopolitiques : l’invasion de l’Ukraine en février 2022 a fait bondir les cours, la mer Noire étant une grande route d’exportation.',
    notes: ['Le rapport mensuel WASDE de l’USDA donne les estimations mondiales de production et de stocks.', ROLL],
    advice: ['Préfère H1 ou H4 : la séance de nuit est peu liquide.', NEWS_ADVICE('les rapports USDA')],
  },
  SOYBEAN: {
    kind: 'matière première agricole, en cents de dollar par boisseau',
    summary: 'Le soja coté à Chicago (CBOT), en cents par boisseau. La demande chinoise, les récoltes du Brésil et de l’Argentine, la météo américaine d’août et la trituration (tourteaux et huile) font son prix.',
    pipValue: '1 pip = 1/4 de cent par boisseau, soit 12,50 USD sur le contrat CBOT de 5 000 boisseaux (ZS).',
    sessions: 'CBOT : séance de jour de 08 h 30 à 13 h 20 heure de Chicago (14 h 30–19 h 20 UTC l’hiver), séance de nuit de 19 h à 07 h 45, peu liquide.',
    volatility: 'Modérée, plus forte pendant l’été américain et aux annonces commerciales entre les États-Unis et la Chine.',
    notes: ['Le Brésil est devenu le premier exportateur mondial : sa récolte (de janvier à avril) compte autant que celle des États-Unis.', ROLL],
    advice: ['Préfère H1 ou H4 : la séance de nuit est peu liquide.', NEWS_ADVICE('les rapports USDA')],
  },
  SUGAR: {
    kind: 'matière première agricole (« soft »), en cents de dollar par livre',
    summary: 'Le sucre brut n° 11 coté sur ICE Futures US, en cents par livre. Le Brésil domine l’offre : sa récolte, l’arbitrage de ses usines entre sucre et éthanol (donc le pétrole) et la politique d’exportation de l’Inde font le cours.',
    pipValue: '1 pip = 0,01 cent par livre, soit 11,20 USD sur le contrat ICE de 112 000 livres.',
    sessions: 'ICE Futures US : environ de 03 h 30 à 13 h heure de New York ; aucune cotation le soir ni la nuit.',
    volatility: 'Modérée à élevée, avec des pics aux rapports de récolte brésiliens (UNICA, deux fois par mois) et aux décisions indiennes.',
    notes: ['Les heures sans cotation n’apparaissent pas dans les données : les colonnes « Asie » et « Hors session » de bt restent presque vides.', ROLL],
    advice: ['Regarde le nombre de trades par heure : seules les heures de séance en contiennent.', SIZE_ADVICE],
  },
  COFFEE: {
    kind: 'matière première agricole (« soft »), en cents de dollar par livre',
    summary: 'Le café arabica (contrat « C ») coté sur ICE Futures US, en cents par livre. La météo au Brésil (gel, sécheresse), premier producteur, et en Colombie et en Amérique centrale, ainsi que les stocks certifiés, font son prix.',
    pipValue: '1 pip = 0,05 cent par livre, soit 18,75 USD sur le contrat ICE de 37 500 livres.',
    sessions: 'ICE Futures US : environ de 04 h 15 à 13 h 30 heure de New York ; aucune cotation le soir ni la nuit.',
    volatility: 'Élevée, avec des sauts lors des épisodes de gel au Brésil (l’hiver austral, de juin à août).',
    notes: ['Le robusta, l’autre grande variété, est coté à Londres en dollars par tonne : c’est un autre instrument.', ROLL],
    advice: ['Regarde le nombre de trades par heure : seules les heures de séance en contiennent.', SIZE_ADVICE],
  },
  COCOA: {
    kind: 'matière première agricole (« soft »), en dollars par tonne',
    summary: 'Le cacao coté sur ICE Futures US, en dollars par tonne. La Côte d’Ivoire et le Ghana produisent la majorité du cacao mondial : la météo, les maladies des cacaoyers et les récoltes de ces deux pays font le cours.',
    pipValue: '1 pip = 1 USD par tonne, soit 10 USD sur le contrat ICE de 10 tonnes.',
    sessions: 'ICE Futures US : environ de 04 h 45 à 13 h 30 heure de New York ; aucune cotation le soir ni la nuit.',
    volatility: 'Élevée ; en 2024 le cacao a atteint des records historiques, au-dessus de 10 000 USD la tonne, après plusieurs mauvaises récoltes en Afrique de l’Ouest.',
    notes: ['Londres cote aussi le cacao, en livres sterling par tonne : un autre instrument.', ROLL],
    advice: ['Les distances en pips se lisent directement en dollars par tonne : adapte le SL au niveau de prix de la période testée.', 'Regarde le nombre de trades par heure : seules les heures de séance en contiennent.'],
  },
  COTTON: {
    kind: 'matière première agricole (« soft »), en cents de dollar par livre',
    summary: 'Le coton n° 2 coté sur ICE Futures US, en cents par livre. Les récoltes des États-Unis (Texas), de l’Inde, de la Chine et du Brésil, et la demande de l’industrie textile font son prix.',
    pipValue: '1 pip = 0,01 cent par livre, soit 5 USD sur le contrat ICE de 50 000 livres.',
    sessions: 'ICE Futures US : environ de 21 h (la veille) à 14 h 20 heure de New York ; le volume se concentre pendant la matinée new-yorkaise.',
    volatility: 'Modérée, plus forte pendant la saison de culture américaine et aux rapports USDA.',
    notes: ['Le rapport WASDE de l’USDA et les ventes à l’exportation hebdomadaires (jeudi) sont suivis de près.', ROLL],
    advice: [NEWS_ADVICE('les rapports USDA'), SIZE_ADVICE],
  },
};
