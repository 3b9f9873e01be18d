import type { ParamDefinition, StrategyParams } from './types.js';
import { getStrategy } from './strategies.js';

/**
 * Every strategy parameter of docs/product.md §2.3. Defaults the spec does not give are chosen here and
 * explained in docs/parameters.md (ema_key, min_pips, max_touch, ob_side, confirm_candle).
 */
export const PARAMS: readonly ParamDefinition[] = [
  {
    name: 'min_wait_candles', type: 'int', default: 3, level: 'basic', min: 0,
    label: 'Attente min (bougies)',
    description: "Nombre minimum de bougies entre la détection de la zone et l'entrée : une zone détectée à la bougie d ne peut être remplie qu'à partir de la bougie d + min_wait_candles.",
  },
  {
    name: 'max_wait_candles', type: 'int', default: 20, level: 'basic', min: 1,
    label: 'Attente max (bougies)',
    description: "La zone expire si elle n'est pas remplie dans les max_wait_candles bougies qui suivent sa détection.",
  },
  {
    name: 'allow_multiple_entries', type: 'bool', default: false, level: 'advanced',
    label: 'Entrées multiples',
    description: "Autorise plusieurs entrées sur une même zone ; sinon une zone n'est remplie qu'une fois.",
  },
  {
    name: 'min_overlap_ratio', type: 'float', default: undefined, level: 'basic',
    label: 'Profondeur min retour (%)',
    description: "Profondeur du retour dans la zone exigée pour entrer, en fraction de sa hauteur (0.25 = 25 %) : l'ordre repose à haut de zone − ratio × hauteur (miroir à la vente). Vide : entrée au simple toucher de la zone.",
  },
  {
    name: 'rsi_key', type: 'string', default: 'RSI', level: 'advanced',
    label: 'Colonne RSI',
    description: "Colonne RSI lue par le filtre (RSI, RSI_14, RSI_7…). Une colonne présente dans le fichier est utilisée telle quelle ; sinon le RSI de Wilder est calculé (14 périodes pour RSI).",
  },
  {
    name: 'rsi_threshold', type: 'float', default: 40, level: 'basic', min: 0, max: 100,
    label: 'Seuil RSI',
    description: 'Achat si le RSI est sous le seuil, vente si le RSI est au-dessus de 100 − seuil. Défaut 40 ; 50 pour les familles englobante et FVG impulsive.',
  },
  {
    name: 'ema_fast', type: 'string', default: 'EMA_50', level: 'basic',
    label: 'EMA rapide',
    description: "Colonne de l'EMA rapide du filtre de tendance (EMA_50, ou une période : 50). Achat si l'EMA rapide est au-dessus de l'EMA lente.",
  },
  {
    name: 'ema_slow', type: 'string', default: 'EMA_200', level: 'basic',
    label: 'EMA lente',
    description: "Colonne de l'EMA lente du filtre de tendance (EMA_200, ou une période : 200).",
  },
  {
    name: 'ema_key', type: 'string', default: 'EMA_50', level: 'basic',
    label: 'EMA du filtre',
    description: "Colonne de l'EMA du filtre simple (EMA_50, ou une période : 50) : achat si la clôture est au-dessus de l'EMA, vente si elle est en dessous.",
  },
  {
    name: 'min_pips', type: 'float', default: 0, level: 'advanced', min: 0,
    label: 'Taille min de la zone',
    description: 'Taille minimale de la zone ou du gap : en pips pour les stratégies de pullback, en unités de prix pour FVG impulsive. 0 : aucun minimum.',
  },
  {
    name: 'max_touch', type: 'int', default: 3, level: 'advanced', min: 1,
    label: 'Touches max',
    description: 'Nombre de retours dans la zone (entrée, refus d\'un filtre ou retour trop peu profond) au-delà duquel la zone est abandonnée.',
  },
  {
    name: 'ob_side', type: 'string', default: 'both', level: 'advanced', choices: ['both', 'bullish', 'bearish'],
    label: 'Sens des order blocks',
    description: 'Order blocks tradés : both (les deux), bullish (haussiers, achats seulement), bearish (baissiers, ventes seulement).',
  },
  {
    name: 'time_key', type: 'string', default: 'time', level: 'advanced',
    label: 'Colonne de temps',
    description: "Nom de la colonne horaire des données d'origine (les fichiers officiels utilisent Datetime) ; conservé dans la feuille Config.",
  },
  {
    name: 'confirm_candle', type: 'bool', default: false, level: 'basic',
    label: 'Bougie de confirmation',
    description: "Exige que la bougie qui suit le signal clôture dans son sens ; le signal est alors décalé d'une bougie.",
  },
];

export const PARAM_NAMES: readonly string[] = PARAMS.map((p) => p.name);

const byName = new Map(PARAMS.map((p) => [p.name, p]));

export function findParam(name: string): ParamDefinition | undefined {
  return byName.get(name);
}

/** The definition of a canonical parameter name; throws `invalid parameter: X`. */
export function getParam(name: string): ParamDefinition {
  const found = byName.get(name);
  if (!found) throw new Error(`invalid parameter: ${JSON.stringify(name)} (expected one of ${PARAM_NAMES.join(', ')})`);
  return found;
}

/**
 * Per-family default overrides. rsi_threshold is declared 40 (docs/product.md §2.3, the catalogue), while the
 * strategy documentation (docs/product.md §3.3) states 50 for the engulfing and impulsive families: both hold,
 * each where it is stated.
 */
export const FAMILY_DEFAULT_OVERRIDES: Readonly<Record<string, Readonly<StrategyParams>>> = {
  fvg_impulsive: { rsi_threshold: 50 },
  englobante_entry: { rsi_threshold: 50 },
};

/** Default values of the parameters a strategy reads, its family's overrides applied; unset ones are left out. */
export function paramDefaults(strategyKey: string): StrategyParams {
  const strategy = getStrategy(strategyKey);
  const overrides = FAMILY_DEFAULT_OVERRIDES[strategy.family] ?? {};
  const defaults: StrategyParams = {};
  for (const name of strategy.params) {
    const value = name in overrides ? overrides[name] : byName.get(name)!.default;
    if (value !== undefined) defaults[name] = value;
  }
  return defaults;
}
