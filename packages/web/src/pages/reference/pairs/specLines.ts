/**
 * The four specification lines of a pair sheet (asset class, pip, sessions and volatility, data in
 * bt): the catalogue's facts joined to the sheet's texts.
 */
import type { AssetClass, SymbolDefinition } from '@bt/core/catalogue';
import type { PairSheet } from './types.js';

export const ASSET_CLASS_LABELS: Readonly<Record<AssetClass, string>> = {
  forex: 'Forex',
  metal: 'Métal',
  energy: 'Énergie',
  agriculture: 'Agricole',
  index: 'Indice',
  crypto: 'Crypto',
};

const NUMBER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 10, useGrouping: false });

/** A pip size or a price distance as French text (0,0001; 100 × 0.0001 is 0,01, not 0,010000000000000002). */
export function frenchNumber(value: number): string {
  return NUMBER.format(Number(value.toPrecision(12)));
}

export interface SpecLine {
  readonly label: string;
  readonly text: string;
}

/** The catalogue's typical spread (one broker's published average, docs/catalogue.md "Typical spreads"). */
function spreadText(symbol: SymbolDefinition): string {
  const spread = symbol.typicalSpreadPips;
  if (spread === null || spread === undefined) return '';
  return ` Écart acheteur-vendeur typique : ${frenchNumber(spread)} pip${spread >= 2 ? 's' : ''} (moyenne publiée par un courtier, pré-remplie comme coût dans le backtest).`;
}

export function specLines(symbol: SymbolDefinition, sheet: PairSheet, dataText: string): SpecLine[] {
  const pip = frenchNumber(symbol.pipSize);
  return [
    { label: 'Classe d’actif', text: `${ASSET_CLASS_LABELS[symbol.assetClass] ?? symbol.assetClass} · ${sheet.kind}` },
    { label: 'Pip', text: `1 pip = ${pip} de prix ; 100 pips (le SL par défaut) = ${frenchNumber(symbol.pipSize * 100)}. Valeur : ${sheet.pipValue}${spreadText(symbol)}` },
    { label: 'Sessions et volatilité', text: `${sheet.sessions} ${sheet.volatility}` },
    { label: 'Données dans bt', text: dataText },
  ];
}
