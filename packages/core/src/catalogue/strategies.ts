import type { EntryMode, FilterKind, StrategyDefinition, StrategyFamily } from './types.js';
import { closest } from './closest.js';

/**
 * The 24 official strategies (docs/product.md §2.3, docs/product.md §3.3): five pattern families, each with filter
 * variants. Texts are composed from the family and the filters so the key, the filters, the
 * parameters and the French wording cannot drift apart. Semantics: docs/architecture.md §2.
 */

interface FamilyText {
  readonly label: string;
  readonly entryMode: EntryMode;
  readonly short: string;
  readonly description: string;
  readonly entryRules: readonly string[];
  readonly params: readonly string[];
}

const PULLBACK_PARAMS = [
  'min_wait_candles', 'max_wait_candles', 'allow_multiple_entries', 'min_overlap_ratio',
  'max_touch', 'min_pips', 'confirm_candle', 'time_key',
] as const;

const PULLBACK_RULES = [
  "La zone peut être remplie à partir de « Attente min (bougies) » bougies après sa détection ; elle expire au-delà de « Attente max (bougies) » bougies.",
  "Ordre limite au haut de la zone (entrée au toucher), ou plus bas de « Profondeur min retour » × hauteur de la zone ; une bougie qui ouvre au-delà de l'ordre est remplie à son ouverture. SL et TP partent du prix de l'ordre.",
  "Une clôture sous le bas de la zone avant l'entrée l'invalide ; chaque retour dans la zone compte pour « Touches max » (entrée, refus d'un filtre ou retour trop peu profond), au-delà la zone est abandonnée.",
  "Sans « Entrées multiples », une zone n'est remplie qu'une fois ; plusieurs zones peuvent être actives en même temps.",
  "Avec « Bougie de confirmation », la bougie qui suit la détection doit clôturer dans le sens de la zone ; la détection passe à cette bougie.",
];

const SIGNAL_RULES = [
  "Avec « Bougie de confirmation », la bougie qui suit le signal doit clôturer dans son sens ; le signal passe à cette bougie.",
  "Entrée à l'ouverture de la bougie qui suit le signal ; SL et TP partent de ce prix d'ouverture.",
];

const OB_DEFINITION = "Order block haussier : la dernière bougie baissière k avant une bougie k+1 qui clôture au-dessus du plus haut de k ; zone [bas de k ; haut de k]";
const FVG_DEFINITION = "FVG haussier complété à la bougie i : plus bas de i au-dessus du plus haut de i-2 et bougie i-1 haussière ; zone [haut de i-2 ; bas de i], connue à la clôture de i";

const FAMILIES: Readonly<Record<StrategyFamily, FamilyText>> = {
  ob_pullback_pure: {
    label: 'OB pullback pur',
    entryMode: 'pullback',
    short: "Entrée au retour du prix dans un order block confirmé.",
    description: "Un order block haussier est la dernière bougie baissière avant une bougie haussière qui clôture au-dessus de son plus haut ; la zone couvre cette bougie baissière, du bas au haut (miroir pour un order block baissier). Après un délai minimum, un ordre limite attend le retour du prix dans la zone, jusqu'à son expiration.",
    entryRules: [
      `${OB_DEFINITION}, connue à la clôture de k+1 (miroir pour la vente). ob_side choisit les order blocks haussiers, baissiers ou les deux ; min_pips est la hauteur minimale de la zone, en pips.`,
      ...PULLBACK_RULES,
    ],
    params: [...PULLBACK_PARAMS, 'ob_side'],
  },
  ob_pullback_gap: {
    label: 'OB pullback avec gap',
    entryMode: 'pullback',
    short: "Entrée au retour dans un order block validé par un gap net.",
    description: "Variante stricte de l'order block : la bougie qui suit la bougie de cassure doit laisser un gap net au-dessus de la zone, sans aucun chevauchement, ce qui valide l'order block une bougie plus tard. Un ordre limite attend ensuite le retour du prix dans la zone, jusqu'à son expiration.",
    entryRules: [
      `${OB_DEFINITION}, validée seulement si la bougie k+2 laisse un gap net (plus bas de k+2 au-dessus du plus haut de k) ; connue à la clôture de k+2 (miroir pour la vente). ob_side choisit les order blocks haussiers, baissiers ou les deux ; min_pips est la hauteur minimale de la zone, en pips.`,
      ...PULLBACK_RULES,
    ],
    params: [...PULLBACK_PARAMS, 'ob_side'],
  },
  fvg_pullback_multi: {
    label: 'FVG pullback multi',
    entryMode: 'pullback',
    short: "Entrée au retour du prix dans un fair value gap, plusieurs zones suivies à la fois.",
    description: "Un fair value gap haussier apparaît quand le plus bas d'une bougie dépasse le plus haut de la bougie d'il y a deux bougies, celle du milieu clôturant en hausse ; la zone est l'écart entre les deux (miroir à la baisse). Chaque gap reste actif jusqu'à son expiration et un ordre limite attend le retour du prix dans chacun.",
    entryRules: [
      `${FVG_DEFINITION} (miroir pour la vente) ; min_pips est la taille minimale du gap, en pips.`,
      ...PULLBACK_RULES,
    ],
    params: PULLBACK_PARAMS,
  },
  fvg_impulsive: {
    label: 'FVG impulsive',
    entryMode: 'signal',
    short: "Entrée à l'ouverture qui suit un fair value gap né d'une bougie impulsive.",
    description: "Un fair value gap dont la bougie du milieu est impulsive donne un signal à la clôture de la bougie qui le complète, dans le sens du gap ; l'entrée se fait à l'ouverture suivante. Pour cette famille, min_pips est exprimé en unités de prix.",
    entryRules: [
      `${FVG_DEFINITION}, dont la bougie du milieu i-1 est impulsive (miroir pour la vente) ; min_pips est la taille minimale du gap, en unités de prix.`,
      "Signal à la clôture de i, dans le sens du gap.",
      ...SIGNAL_RULES,
    ],
    params: ['min_pips', 'confirm_candle', 'time_key'],
  },
  englobante_entry: {
    label: 'Englobante 3 bougies',
    entryMode: 'signal',
    short: "Entrée à l'ouverture qui suit une bougie englobante sur 3 bougies.",
    description: "Une bougie haussière dont le corps couvre à lui seul les corps des deux bougies précédentes, la précédente étant baissière, donne un signal d'achat à sa clôture (miroir pour la vente) ; l'entrée se fait à l'ouverture suivante.",
    entryRules: [
      "Bougie i haussière, bougie i-1 baissière, et le corps de i couvre les corps de i-1 et de i-2 réunis (miroir pour la vente).",
      "Signal à la clôture de i.",
      ...SIGNAL_RULES,
    ],
    params: ['confirm_candle', 'time_key'],
  },
};

interface FilterText {
  readonly label: string;
  readonly description: string;
  /** Entry-rule line: the filter's name, then (after where it is read) its condition. */
  readonly name: string;
  readonly condition: string;
  readonly params: readonly string[];
}

const FILTERS: Readonly<Record<FilterKind, FilterText>> = {
  ema_simple: {
    label: 'EMA simple',
    description: "Filtre EMA simple : achat si la clôture est au-dessus de l'EMA, vente si elle est en dessous.",
    name: 'Filtre EMA simple (ema_key)',
    condition: "achat si la clôture est au-dessus de l'EMA, vente si elle est en dessous.",
    params: ['ema_key'],
  },
  rsi: {
    label: 'RSI',
    description: "Filtre RSI : achat si le RSI est sous le seuil, vente s'il est au-dessus de 100 − seuil.",
    name: 'Filtre RSI (rsi_key)',
    condition: 'achat si RSI < rsi_threshold, vente si RSI > 100 − rsi_threshold.',
    params: ['rsi_key', 'rsi_threshold'],
  },
  tendance_ema: {
    label: 'tendance EMA',
    description: "Filtre tendance EMA : achat si l'EMA rapide est au-dessus de l'EMA lente, vente si elle est en dessous.",
    name: 'Filtre tendance EMA (ema_fast, ema_slow)',
    condition: "achat si l'EMA rapide est au-dessus de l'EMA lente, vente si elle est en dessous.",
    params: ['ema_fast', 'ema_slow'],
  },
};

/** The official keys with their family and filters, in the catalogue's order (docs/product.md §2.3). */
const OFFICIAL: readonly (readonly [string, StrategyFamily, readonly FilterKind[]])[] = [
  ['ob_pullback_pure', 'ob_pullback_pure', []],
  ['ob_pullback_pure_ema_simple', 'ob_pullback_pure', ['ema_simple']],
  ['ob_pullback_pure_rsi', 'ob_pullback_pure', ['rsi']],
  ['ob_pullback_pure_ema_simple_rsi', 'ob_pullback_pure', ['ema_simple', 'rsi']],
  ['ob_pullback_pure_tendance_ema', 'ob_pullback_pure', ['tendance_ema']],
  ['ob_pullback_pure_tendance_ema_rsi', 'ob_pullback_pure', ['tendance_ema', 'rsi']],
  ['ob_pullback_gap', 'ob_pullback_gap', []],
  ['ob_pullback_gap_ema_simple', 'ob_pullback_gap', ['ema_simple']],
  ['ob_pullback_gap_rsi', 'ob_pullback_gap', ['rsi']],
  ['ob_pullback_gap_tendance_ema', 'ob_pullback_gap', ['tendance_ema']],
  ['ob_pullback_gap_ema_rsi', 'ob_pullback_gap', ['ema_simple', 'rsi']],
  ['fvg_pullback_multi', 'fvg_pullback_multi', []],
  ['fvg_pullback_multi_ema', 'fvg_pullback_multi', ['ema_simple']],
  ['fvg_pullback_multi_rsi', 'fvg_pullback_multi', ['rsi']],
  ['fvg_pullback_tendance_ema', 'fvg_pullback_multi', ['tendance_ema']],
  ['fvg_pullback_tendance_ema_rsi', 'fvg_pullback_multi', ['tendance_ema', 'rsi']],
  ['fvg_impulsive', 'fvg_impulsive', []],
  ['fvg_impulsive_ema', 'fvg_impulsive', ['ema_simple']],
  ['fvg_impulsive_rsi', 'fvg_impulsive', ['rsi']],
  ['fvg_impulsive_rsi_ema', 'fvg_impulsive', ['rsi', 'ema_simple']],
  ['englobante_entry', 'englobante_entry', []],
  ['englobante_entry_ema', 'englobante_entry', ['ema_simple']],
  ['englobante_entry_rsi', 'englobante_entry', ['rsi']],
  ['englobante_entry_rsi_ema', 'englobante_entry', ['rsi', 'ema_simple']],
];

function define(key: string, family: StrategyFamily, filters: readonly FilterKind[]): StrategyDefinition {
  const f = FAMILIES[family];
  const texts = filters.map((kind) => FILTERS[kind]);
  const where = f.entryMode === 'pullback' ? "la dernière bougie clôturée avant l'entrée" : 'la bougie du signal';
  const filterNote = texts.length === 0 ? '' : ` ${texts.length === 1 ? 'Filtre' : 'Filtres'} : ${texts.map((t) => t.label).join(' puis ')}.`;
  return {
    key,
    family,
    entryMode: f.entryMode,
    filters,
    label: [f.label, ...texts.map((t) => t.label)].join(' + '),
    short: f.short + filterNote,
    description: [f.description, ...texts.map((t) => t.description)].join(' '),
    entryRules: [...f.entryRules, ...texts.map((t) => `${t.name}, lu sur ${where} : ${t.condition}`)],
    params: [...f.params, ...texts.flatMap((t) => t.params)],
  };
}

export const STRATEGIES: readonly StrategyDefinition[] = OFFICIAL.map(([key, family, filters]) => define(key, family, filters));

export const STRATEGY_KEYS: readonly string[] = STRATEGIES.map((s) => s.key);

const byKey = new Map(STRATEGIES.map((s) => [s.key, s]));

export function isStrategyKey(key: string): boolean {
  return byKey.has(key);
}

export function findStrategy(key: string): StrategyDefinition | undefined {
  return byKey.get(key) ?? byKey.get(String(key).trim().toLowerCase());
}

/** The official strategy; throws `invalid strategy: X (did you mean Y?)`. */
export function getStrategy(key: string): StrategyDefinition {
  const found = findStrategy(key);
  if (found) return found;
  // No suggestion for a key too long to be a typo (closest's SUGGESTION_MAX_INPUT); shown cut, as showValue cuts values.
  const suggestion = closest(String(key).trim(), STRATEGY_KEYS);
  const shown = JSON.stringify(typeof key === 'string' ? key.slice(0, 100) : key) ?? String(key);
  const hint = suggestion ? `; did you mean ${suggestion}?` : '';
  throw new Error(`invalid strategy: ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} (not one of the ${STRATEGY_KEYS.length} official strategies${hint})`);
}
