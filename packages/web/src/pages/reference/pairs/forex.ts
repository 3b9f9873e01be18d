/**
 * Forex pair sheets. What is true of a currency (its central bank, what moves it, where it trades)
 * is written once per currency; each pair adds its own summary, volatility and notes. Sessions use
 * bt's UTC session columns (Asie 00–07, Londres 08–12, Londres/New York 13–16, New York 17–21).
 */
import type { PairSheet } from './types.js';

type Region = 'asia' | 'europe' | 'america';

interface Currency {
  readonly name: string;
  readonly bank: string;
  readonly drivers: string;
  readonly region: Region;
}

const CURRENCIES: Readonly<Record<string, Currency>> = {
  EUR: { name: 'l’euro', bank: 'Banque centrale européenne (BCE)', drivers: 'inflation de la zone euro, PMI, indicateurs allemands (Ifo, ZEW)', region: 'europe' },
  USD: { name: 'le dollar américain', bank: 'Réserve fédérale (Fed, 8 réunions du FOMC par an)', drivers: 'emploi (NFP), inflation (CPI, PCE), ISM, ventes au détail', region: 'america' },
  GBP: { name: 'la livre sterling', bank: 'Banque d’Angleterre (BoE)', drivers: 'inflation britannique, emploi, PIB, politique budgétaire', region: 'europe' },
  JPY: { name: 'le yen', bank: 'Banque du Japon (BoJ)', drivers: 'écart de taux avec les États-Unis, interventions du ministère des Finances, appétit pour le risque', region: 'asia' },
  CHF: { name: 'le franc suisse', bank: 'Banque nationale suisse (BNS)', drivers: 'rôle de valeur refuge, décisions et interventions de la BNS', region: 'europe' },
  AUD: { name: 'le dollar australien', bank: 'Reserve Bank of Australia (RBA)', drivers: 'minerai de fer et charbon, conjoncture chinoise, appétit pour le risque', region: 'asia' },
  NZD: { name: 'le dollar néo-zélandais', bank: 'Reserve Bank of New Zealand (RBNZ)', drivers: 'produits laitiers (enchères Global Dairy Trade), Chine, appétit pour le risque', region: 'asia' },
  CAD: { name: 'le dollar canadien', bank: 'Banque du Canada (BoC)', drivers: 'prix du pétrole, emploi canadien, échanges avec les États-Unis', region: 'america' },
};

const WEEK = 'Le forex cote sans interruption du dimanche 22 h UTC au vendredi 22 h UTC (21 h en été).';

const SESSIONS: Readonly<Record<string, string>> = {
  'europe+america': 'Le plus actif de 13 h à 16 h UTC, quand Londres et New York sont ouvertes ensemble (colonne Londres/New York de bt), et dès 08 h UTC avec Londres ; calme en session Asie.',
  'europe+europe': 'Actif surtout pendant la session de Londres (08–16 h UTC) ; peu de mouvement en session Asie et après la clôture européenne.',
  'asia+america': 'Deux temps forts : la session Asie (00–07 h UTC, Tokyo et Sydney) et New York (13–21 h UTC), avec le plus de volume quand Londres et New York se chevauchent.',
  'asia+europe': 'Actif en session Asie (00–07 h UTC), puis à l’ouverture de Londres (08 h UTC) où le volume est le plus fort ; plus calme en fin de séance new-yorkaise.',
  'asia+asia': 'Actif surtout en session Asie (00–07 h UTC, Sydney, Wellington et Tokyo), puis à l’ouverture de Londres ; peu de mouvement propre le soir en Europe.',
  'america+america': 'Actif surtout pendant la séance de New York (13–21 h UTC), en particulier à la publication des chiffres nord-américains.',
};

function sessionsOf(base: Currency, quote: Currency): string {
  const order: Region[] = ['asia', 'europe', 'america'];
  const [a, b] = [base.region, quote.region].sort((x, y) => order.indexOf(x) - order.indexOf(y));
  return `${SESSIONS[`${a}+${b}`]} ${WEEK}`;
}

/** The pip value of a forex pair per standard lot (100,000 units of the base currency). */
export function forexPipValue(base: string, quote: string): string {
  const perLot = quote === 'JPY' ? '1 000 JPY' : `10 ${quote}`;
  const lot = `par lot standard (100 000 ${base})`;
  if (quote === 'USD') return `${perLot} ${lot}, 1 USD par mini-lot (10 000 ${base}).`;
  if (base === 'USD') return `${perLot} ${lot} : la valeur du pip est dans la devise de cotation, soit en dollars ${quote === 'JPY' ? '1 000' : '10'} ÷ le cours ${base}/${quote}.`;
  return `${perLot} ${lot} : la valeur du pip est dans la devise de cotation (${quote}), à convertir dans la devise de ton compte au cours du moment.`;
}

const CROSS_NOTE = 'Paire sans dollar (un « cross ») : son cours découle des deux paires contre le dollar, et l’écart acheteur-vendeur est en général plus large que sur les paires majeures.';
const PRECISION_NOTE = (pip: string) => `La plupart des courtiers cotent un chiffre de plus que le pip (le dixième de pip) : 1 pip = ${pip}.`;

interface PairText {
  readonly kind: string;
  readonly summary: string;
  readonly volatility: string;
  readonly notes?: readonly string[];
  readonly advice?: readonly string[];
}

const COMMON_ADVICE = [
  'Repère les annonces à fort impact du calendrier économique : une bougie d’annonce peut toucher le SL et le TP à la fois (bt compte alors un SL et signale l’ambiguïté).',
  'Compare les heures dorées de ton backtest aux sessions ci-dessus : une heure qui ne gagne qu’hors session repose souvent sur peu de trades (regarde l’intervalle de confiance).',
];

function majorDrivers(base: Currency, quote: Currency): string {
  return `À suivre : ${base.bank} et ${quote.bank} ; pour ${base.name}, ${base.drivers} ; pour ${quote.name}, ${quote.drivers}.`;
}

const PAIRS: Readonly<Record<string, PairText>> = {
  EURUSD: {
    kind: 'paire majeure',
    summary: 'L’euro contre le dollar américain, la paire la plus échangée au monde selon l’enquête triennale de la Banque des règlements internationaux. Elle reflète l’écart entre les politiques monétaires de la BCE et de la Fed et la conjoncture des deux plus grandes zones économiques.',
    volatility: 'Modérée pour une paire majeure, avec des pics aux décisions de la Fed et de la BCE, au NFP et aux chiffres d’inflation américains.',
    notes: ['Liquidité la plus profonde du marché : écart acheteur-vendeur parmi les plus serrés.'],
  },
  GBPUSD: {
    kind: 'paire majeure (surnommée « Cable »)',
    summary: 'La livre sterling contre le dollar, surnommée « Cable » en souvenir du câble télégraphique transatlantique qui transmettait son cours. Elle réagit à la Banque d’Angleterre, à l’inflation britannique et à l’actualité politique du Royaume-Uni, autant qu’au dollar.',
    volatility: 'Plus nerveuse que EUR/USD, sensible aux surprises d’inflation britanniques et aux chocs politiques.',
    notes: ['Le référendum sur le Brexit du 23 juin 2016 a montré la sensibilité de la livre aux chocs politiques : mouvements rapides, écarts élargis.'],
  },
  USDJPY: {
    kind: 'paire majeure',
    summary: 'Le dollar contre le yen. Elle suit de près l’écart de taux entre les États-Unis et le Japon, et le yen, monnaie de financement du « carry trade », se renforce souvent quand les marchés ont peur.',
    volatility: 'Modérée en temps normal, avec des accélérations brusques lors des interventions japonaises et des changements de cap de la BoJ.',
    notes: [
      'Le ministère des Finances japonais est déjà intervenu pour soutenir le yen (2022, 2024) : mouvements de plusieurs centaines de pips possibles en quelques minutes.',
      'La BoJ a mis fin à sa politique de taux négatifs en mars 2024.',
    ],
  },
  USDCHF: {
    kind: 'paire majeure (surnommée « Swissie »)',
    summary: 'Le dollar contre le franc suisse, valeur refuge traditionnelle. Elle évolue souvent en miroir d’EUR/USD, le franc suivant en grande partie l’euro.',
    volatility: 'Plutôt modérée, avec des réactions fortes aux décisions surprises de la BNS et aux épisodes d’aversion au risque.',
  },
  AUDUSD: {
    kind: 'paire majeure (surnommée « Aussie »)',
    summary: 'Le dollar australien contre le dollar américain. L’Australie exporte beaucoup de matières premières, surtout vers la Chine : la paire suit les prix du minerai de fer, la conjoncture chinoise et l’appétit pour le risque.',
    volatility: 'Modérée, avec des mouvements aux décisions de la RBA, aux chiffres d’emploi australiens et aux statistiques chinoises.',
  },
  USDCAD: {
    kind: 'paire majeure (surnommée « Loonie »)',
    summary: 'Le dollar américain contre le dollar canadien, surnommé « Loonie » d’après le huard gravé sur la pièce d’un dollar. Le Canada exporte beaucoup de pétrole vers les États-Unis : un baril plus cher soutient en général le dollar canadien (la paire baisse).',
    volatility: 'Modérée ; les chiffres d’emploi canadiens et américains, souvent publiés le même vendredi, créent des pics.',
  },
  NZDUSD: {
    kind: 'paire majeure (surnommée « Kiwi »)',
    summary: 'Le dollar néo-zélandais contre le dollar américain. La Nouvelle-Zélande exporte surtout des produits agricoles, en tête les produits laitiers : la paire suit leurs prix, la Chine et l’appétit pour le risque.',
    volatility: 'Modérée, liquidité plus faible que les autres majeures ; mouvements aux décisions de la RBNZ.',
    notes: ['La RBNZ a été la première banque centrale à adopter une cible d’inflation formelle (loi de 1989).'],
  },
  EURGBP: {
    kind: 'cross européen',
    summary: 'L’euro contre la livre sterling : deux économies voisines et très liées, dont l’écart vient surtout des politiques de la BCE et de la BoE.',
    volatility: 'Parmi les plus faibles du forex : des mouvements lents, souvent en range, sauf chocs politiques britanniques.',
    advice: ['Sur une paire aussi calme, un SL et un TP de 100 pips peuvent rester des semaines sans être touchés : essaie des distances plus courtes ou le SL interne.'],
  },
  EURCHF: {
    kind: 'cross européen',
    summary: 'L’euro contre le franc suisse. La Suisse commerce surtout avec la zone euro et la BNS surveille de près ce cours : la paire reflète l’aversion au risque en Europe.',
    volatility: 'Faible en temps normal, avec des ruptures historiques lors des décisions de la BNS.',
    notes: ['Le 15 janvier 2015, la BNS a abandonné sans préavis le cours plancher de 1,20 franc pour un euro : la paire a chuté de plus de mille pips en quelques minutes.'],
  },
  EURAUD: {
    kind: 'cross',
    summary: 'L’euro contre le dollar australien : l’opposition d’une devise européenne et d’une devise liée aux matières premières et à la Chine.',
    volatility: 'Assez élevée pour un cross de l’euro, l’AUD réagissant aux statistiques chinoises et à l’appétit pour le risque.',
  },
  EURCAD: {
    kind: 'cross',
    summary: 'L’euro contre le dollar canadien : l’euro face à une devise portée par le pétrole.',
    volatility: 'Modérée, avec des mouvements liés au pétrole et aux publications de la BCE et de la BoC.',
  },
  EURNZD: {
    kind: 'cross',
    summary: 'L’euro contre le dollar néo-zélandais : deux économies éloignées, l’une industrielle, l’autre agricole.',
    volatility: 'Élevée pour un cross de l’euro, avec une liquidité plus faible et des écarts plus larges.',
  },
  GBPCHF: {
    kind: 'cross européen',
    summary: 'La livre contre le franc suisse : une devise sensible à l’actualité britannique face à une valeur refuge.',
    volatility: 'Élevée : la livre apporte sa nervosité et le franc réagit à l’aversion au risque.',
  },
  GBPAUD: {
    kind: 'cross',
    summary: 'La livre sterling contre le dollar australien : deux devises aux moteurs indépendants, le Royaume-Uni d’un côté, matières premières et Chine de l’autre.',
    volatility: 'Élevée : de larges amplitudes journalières en pips.',
  },
  GBPCAD: {
    kind: 'cross',
    summary: 'La livre sterling contre le dollar canadien : l’actualité britannique face au pétrole et à l’économie canadienne.',
    volatility: 'Élevée, liée à la fois à la livre et au pétrole.',
  },
  GBPNZD: {
    kind: 'cross',
    summary: 'La livre sterling contre le dollar néo-zélandais, l’un des crosses les plus amples du marché.',
    volatility: 'Très élevée, avec une liquidité plus faible : écarts larges, surtout en session Asie.',
  },
  AUDCAD: {
    kind: 'cross de devises « matières premières »',
    summary: 'Le dollar australien contre le dollar canadien : deux économies exportatrices de matières premières, métaux et charbon d’un côté, pétrole de l’autre.',
    volatility: 'Modérée ; l’écart entre les métaux et le pétrole la fait évoluer.',
  },
  AUDCHF: {
    kind: 'cross',
    summary: 'Le dollar australien, devise de risque, contre le franc suisse, valeur refuge : la paire monte souvent quand l’appétit pour le risque revient et baisse dans les phases de peur.',
    volatility: 'Modérée, avec des baisses rapides lors des épisodes d’aversion au risque.',
  },
  AUDNZD: {
    kind: 'cross océanien',
    summary: 'Le dollar australien contre le dollar néo-zélandais : deux économies voisines aux cycles proches, dont l’écart vient des décisions de la RBA et de la RBNZ.',
    volatility: 'Faible : la paire reste souvent dans un range étroit.',
    advice: ['Adapte les distances : 100 pips peuvent représenter plusieurs semaines de mouvement sur cette paire.'],
  },
  CADCHF: {
    kind: 'cross',
    summary: 'Le dollar canadien contre le franc suisse : le pétrole et l’économie nord-américaine face à une valeur refuge.',
    volatility: 'Modérée, liquidité plus faible que les autres crosses.',
  },
  NZDCAD: {
    kind: 'cross de devises « matières premières »',
    summary: 'Le dollar néo-zélandais contre le dollar canadien : les produits laitiers face au pétrole.',
    volatility: 'Modérée, liquidité faible : écarts plus larges que la moyenne.',
  },
  NZDCHF: {
    kind: 'cross',
    summary: 'Le dollar néo-zélandais, devise de risque, contre le franc suisse, valeur refuge.',
    volatility: 'Modérée, liquidité faible ; sensible aux phases d’aversion au risque.',
  },
  EURJPY: {
    kind: 'cross du yen',
    summary: 'L’euro contre le yen, l’un des crosses les plus échangés. Il combine l’écart de taux entre la zone euro et le Japon et le rôle de refuge du yen.',
    volatility: 'Assez élevée, avec des baisses rapides quand l’aversion au risque fait monter le yen.',
  },
  GBPJPY: {
    kind: 'cross du yen',
    summary: 'La livre contre le yen, réputée pour ses amplitudes : la nervosité de la livre s’ajoute à celle du yen.',
    volatility: 'Très élevée : parmi les paires les plus amples du forex, d’où son surnom de « Beast ».',
    advice: ['Sur une paire aussi ample, un SL de 100 pips peut être touché par le bruit d’une seule séance : compare avec le SL interne.'],
  },
  AUDJPY: {
    kind: 'cross du yen',
    summary: 'Le dollar australien contre le yen, baromètre classique de l’appétit pour le risque : il monte quand les investisseurs cherchent du rendement et chute dans les phases de peur.',
    volatility: 'Modérée à élevée, avec des chutes rapides lors des épisodes d’aversion au risque.',
  },
  CADJPY: {
    kind: 'cross du yen',
    summary: 'Le dollar canadien contre le yen : le pétrole et l’appétit pour le risque d’un côté, une valeur refuge de l’autre.',
    volatility: 'Modérée, sensible au pétrole et au sentiment de marché.',
  },
  CHFJPY: {
    kind: 'cross du yen',
    summary: 'Le franc suisse contre le yen : deux valeurs refuges, dont l’écart vient surtout des politiques de la BNS et de la BoJ.',
    volatility: 'Modérée, liquidité plus faible que les autres crosses du yen.',
  },
  NZDJPY: {
    kind: 'cross du yen',
    summary: 'Le dollar néo-zélandais contre le yen, paire de « carry trade » : elle profite de l’écart de taux quand le marché est serein et recule dans les phases de peur.',
    volatility: 'Modérée à élevée, liquidité faible.',
  },
};

function forexSheet(symbol: string, text: PairText): PairSheet {
  const base = symbol.slice(0, 3);
  const quote = symbol.slice(3);
  const b = CURRENCIES[base]!;
  const q = CURRENCIES[quote]!;
  const isCross = base !== 'USD' && quote !== 'USD';
  return {
    summary: text.summary,
    kind: text.kind,
    pipValue: forexPipValue(base, quote),
    sessions: sessionsOf(b, q),
    volatility: text.volatility,
    notes: [majorDrivers(b, q), ...(text.notes ?? []), ...(isCross ? [CROSS_NOTE] : []), PRECISION_NOTE(quote === 'JPY' ? '0,01' : '0,0001')],
    advice: [...(text.advice ?? []), ...COMMON_ADVICE],
  };
}

export const FOREX_SHEETS: Readonly<Record<string, PairSheet>> = Object.fromEntries(
  Object.entries(PAIRS).map(([symbol, text]) => [symbol, forexSheet(symbol, text)]),
);
