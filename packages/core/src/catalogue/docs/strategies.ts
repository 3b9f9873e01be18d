import type { FilterKind, ParamDefinition, StrategyDefinition, StrategyFamily } from '../types.js';
import { STRATEGIES, findStrategy } from '../strategies.js';
import { findParam, paramDefaults } from '../params.js';

/**
 * The strategy documentation (docs/web.md "Strategy documentation"), generated from the catalogue
 * the engine runs: a strategy's title, summary, entry conditions and parameter list are the
 * catalogue's own texts and signature, and its parameter defaults are `paramDefaults`, so the
 * documentation cannot say something the engine does not do. What the catalogue has no field for
 * (tags, the pattern's vocabulary, the internal stop) is written here per family and per filter,
 * from docs/engine.md, and typed by family and filter so a new one cannot be left undocumented.
 */

/** What the documentation shows in place of a missing text. */
export const TO_DOCUMENT = 'À documenter.';

export interface StrategyDocParam {
  readonly name: string;
  /** The form's label ('Attente min (bougies)'). */
  readonly label: string;
  readonly description: string;
  /** The default this strategy runs with, in words ('3', 'non', 'EMA_50', 'vide : entrée au toucher'). */
  readonly defaultText: string;
  readonly level: 'basic' | 'advanced';
}

export interface StrategyDocTerm {
  readonly term: string;
  readonly text: string;
}

export interface StrategyDoc {
  readonly key: string;
  readonly family: StrategyFamily;
  readonly familyLabel: string;
  readonly title: string;
  readonly subtitle: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly entryConditions: readonly string[];
  /** The vocabulary the conditions use (the pattern, the filters). */
  readonly definitions: readonly StrategyDocTerm[];
  /** Where the stop sits with "SL 0" (internal stop), and the targets it gives. */
  readonly internalStop: string;
  readonly parameters: readonly StrategyDocParam[];
  /** The parts still missing ('résumé', 'paramètre x'): empty for a complete sheet. */
  readonly missing: readonly string[];
}

interface FamilyDoc {
  readonly label: string;
  readonly patternTag: string;
  readonly definitions: readonly StrategyDocTerm[];
  readonly internalStop: string;
}

const ZONE_STOP = "Avec un SL à 0, le stop se place au bord opposé de la zone (son bas pour un achat, son haut pour une vente). R est la distance entre le prix de l'ordre et ce stop ; TP1 à 1R et TP2 à 2R, sauf si tu donnes leurs distances en pips.";
const PATTERN_STOP = "Avec un SL à 0, le stop se place à l'extrême des trois bougies du motif (leur plus bas pour un achat, leur plus haut pour une vente). R est la distance entre le prix d'entrée et ce stop ; TP1 à 1R et TP2 à 2R, sauf si tu donnes leurs distances en pips.";

const ORDER_BLOCK: StrategyDocTerm = {
  term: 'Order block',
  text: "La dernière bougie baissière (clôture sous l'ouverture) avant une bougie haussière qui clôture au-dessus de son plus haut. La zone va du plus bas au plus haut de cette bougie baissière. Miroir à la vente.",
};
const FVG: StrategyDocTerm = {
  term: 'Fair value gap (FVG)',
  text: "Trois bougies où le plus bas de la troisième reste au-dessus du plus haut de la première, la bougie du milieu clôturant en hausse : l'écart entre les deux est la zone. Miroir à la vente.",
};
const PULLBACK: StrategyDocTerm = {
  term: 'Pullback',
  text: "Après la détection, un ordre limite attend que le prix revienne dans la zone ; il ne peut pas être rempli sur la bougie qui confirme la zone.",
};
const SIGNAL: StrategyDocTerm = {
  term: 'Signal',
  text: "Le motif est connu à la clôture de sa dernière bougie ; l'entrée se fait au prix d'ouverture de la bougie suivante, sans ordre en attente.",
};

const FAMILY_DOCS: Readonly<Record<StrategyFamily, FamilyDoc>> = {
  ob_pullback_pure: { label: 'Order block', patternTag: 'Order block', definitions: [ORDER_BLOCK, PULLBACK], internalStop: ZONE_STOP },
  ob_pullback_gap: {
    label: 'Order block avec gap',
    patternTag: 'Order block',
    definitions: [
      ORDER_BLOCK,
      { term: 'Gap net', text: "La bougie qui suit la bougie de cassure ne touche plus la zone : son plus bas reste au-dessus du plus haut de l'order block (miroir à la vente). Sans ce gap, l'order block est ignoré." },
      PULLBACK,
    ],
    internalStop: ZONE_STOP,
  },
  fvg_pullback_multi: { label: 'Fair value gap en pullback', patternTag: 'Fair value gap', definitions: [FVG, PULLBACK], internalStop: ZONE_STOP },
  fvg_impulsive: {
    label: 'Fair value gap impulsif',
    patternTag: 'Fair value gap',
    definitions: [
      FVG,
      { term: 'Bougie impulsive', text: "La bougie du milieu du FVG a un corps (écart ouverture-clôture) d'au moins la moitié de son range (plus haut − plus bas) et au moins aussi grand que le corps de chacune des deux autres bougies." },
      SIGNAL,
    ],
    internalStop: PATTERN_STOP,
  },
  englobante_entry: {
    label: 'Englobante 3 bougies',
    patternTag: 'Englobante',
    definitions: [
      { term: 'Englobante 3 bougies', text: "Une bougie haussière suit une bougie baissière, et son corps couvre à lui seul les corps des deux bougies précédentes (ouverture au niveau du plus bas de leurs corps ou en dessous, clôture au niveau de leur plus haut ou au-dessus). Une bougie dont la clôture égale l'ouverture n'est ni haussière ni baissière. Miroir à la vente." },
      SIGNAL,
    ],
    internalStop: PATTERN_STOP,
  },
};

const FILTER_DOCS: Readonly<Record<FilterKind, { readonly tag: string; readonly definition: StrategyDocTerm }>> = {
  rsi: {
    tag: 'Filtre RSI',
    definition: { term: 'RSI', text: "Indice de force relative de Wilder (14 périodes par défaut) : le filtre n'achète que sous le seuil et ne vend qu'au-dessus de 100 − seuil. À égalité, ni l'un ni l'autre ; tant que le RSI n'a pas assez d'historique, aucune entrée." },
  },
  ema_simple: {
    tag: 'Filtre EMA simple',
    definition: { term: 'EMA simple', text: "Moyenne mobile exponentielle des clôtures : achat seulement si la clôture est au-dessus de l'EMA, vente seulement si elle est en dessous. Tant que l'EMA n'a pas assez d'historique, aucune entrée." },
  },
  tendance_ema: {
    tag: 'Filtre tendance EMA',
    definition: { term: 'Tendance EMA', text: "Deux moyennes mobiles exponentielles : achat seulement si l'EMA rapide est au-dessus de l'EMA lente, vente seulement si elle est en dessous." },
  },
};

const ENTRY_TAGS = { pullback: 'Pullback · ordre limite', signal: "Signal · entrée à l'ouverture" } as const;

/** The default a strategy runs with, in the words of the documentation. */
export function defaultText(param: ParamDefinition, value: number | boolean | string | undefined): string {
  if (value === undefined) return param.name === 'min_overlap_ratio' ? 'vide : entrée au toucher' : 'aucune';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (typeof value === 'number') return String(value).replace('.', ',');
  return value;
}

function buildDoc(strategy: StrategyDefinition): StrategyDoc {
  const family = FAMILY_DOCS[strategy.family];
  const defaults = paramDefaults(strategy.key);
  const missing: string[] = [];
  const parameters = strategy.params.map((name): StrategyDocParam => {
    const param = findParam(name);
    if (!param?.description) missing.push(`paramètre ${name}`);
    return {
      name,
      label: param?.label ?? name,
      description: param?.description || TO_DOCUMENT,
      defaultText: param ? defaultText(param, defaults[name]) : TO_DOCUMENT,
      level: param?.level ?? 'advanced',
    };
  });
  if (!strategy.description) missing.push('résumé');
  if (strategy.entryRules.length === 0) missing.push("conditions d'entrée");
  if (!strategy.short) missing.push('sous-titre');
  const filters = strategy.filters.map((kind) => FILTER_DOCS[kind]);
  return {
    key: strategy.key,
    family: strategy.family,
    familyLabel: family.label,
    title: strategy.label,
    subtitle: strategy.short || TO_DOCUMENT,
    tags: [family.patternTag, ENTRY_TAGS[strategy.entryMode], ...(filters.length ? filters.map((f) => f.tag) : ['Sans filtre'])],
    summary: strategy.description || TO_DOCUMENT,
    entryConditions: strategy.entryRules,
    definitions: [...family.definitions, ...filters.map((f) => f.definition)],
    internalStop: family.internalStop,
    parameters,
    missing,
  };
}

/** Every official strategy's documentation, in the catalogue's order (families together). */
export const STRATEGY_DOCS: readonly StrategyDoc[] = STRATEGIES.map(buildDoc);

const docsByKey = new Map(STRATEGY_DOCS.map((d) => [d.key, d]));

/** The documentation of an official strategy (key matched as `findStrategy` does), or undefined. */
export function strategyDoc(key: string): StrategyDoc | undefined {
  const strategy = findStrategy(key);
  return strategy ? docsByKey.get(strategy.key) : undefined;
}

/** The French name of each family, in the catalogue's order (the documentation's table of contents). */
export function strategyFamilies(): { family: StrategyFamily; label: string; keys: string[] }[] {
  const out: { family: StrategyFamily; label: string; keys: string[] }[] = [];
  for (const doc of STRATEGY_DOCS) {
    const last = out[out.length - 1];
    if (last && last.family === doc.family) last.keys.push(doc.key);
    else out.push({ family: doc.family, label: doc.familyLabel, keys: [doc.key] });
  }
  return out;
}
