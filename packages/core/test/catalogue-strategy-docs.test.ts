import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES, STRATEGY_DOCS, TO_DOCUMENT, defaultText, getParam, strategyDoc, strategyFamilies } from '@bt/core/catalogue';
import { normalizeParams, paramSignature } from '@bt/core/params';
import { officialPlan } from '@bt/core/strategies';

const FILTER_TAGS = { rsi: 'Filtre RSI', ema_simple: 'Filtre EMA simple', tendance_ema: 'Filtre tendance EMA' } as const;

test('every catalogue strategy has a complete documentation sheet (none left "À documenter.")', () => {
  assert.equal(STRATEGY_DOCS.length, STRATEGIES.length);
  const incomplete = STRATEGY_DOCS.filter((d) => d.missing.length > 0).map((d) => `${d.key}: ${d.missing.join(', ')}`);
  assert.deepEqual(incomplete, [], `sheets to complete:\n${incomplete.join('\n')}`);
  for (const strategy of STRATEGIES) {
    const doc = strategyDoc(strategy.key);
    assert.ok(doc, strategy.key);
    for (const text of [doc.title, doc.subtitle, doc.summary, doc.internalStop, ...doc.entryConditions, ...doc.tags]) {
      assert.ok(text.trim().length > 0 && text !== TO_DOCUMENT, `${strategy.key}: empty or to-document text`);
    }
    assert.ok(doc.entryConditions.length >= 2, `${strategy.key}: entry conditions`);
    assert.ok(doc.definitions.length >= 2, `${strategy.key}: definitions`);
    for (const p of doc.parameters) assert.ok(p.description && p.description !== TO_DOCUMENT && p.label, `${strategy.key}.${p.name}`);
  }
});

test('the documentation says what the engine runs: its signature, its defaults, its entry mode and filters', () => {
  for (const strategy of STRATEGIES) {
    const doc = strategyDoc(strategy.key)!;
    // The parameters the engine accepts for this key, in its order.
    assert.deepEqual(doc.parameters.map((p) => p.name), paramSignature(strategy.key), strategy.key);
    // The defaults a run without parameters gets (family overrides included: rsi_threshold 50 for the signal families).
    const engineDefaults = normalizeParams({}, { strategy: strategy.key }).params;
    for (const p of doc.parameters) assert.equal(p.defaultText, defaultText(getParam(p.name), engineDefaults[p.name]), `${strategy.key}.${p.name}`);
    const plan = officialPlan(strategy);
    assert.equal(doc.tags.includes(plan.entryMode === 'pullback' ? 'Pullback · ordre limite' : "Signal · entrée à l'ouverture"), true, strategy.key);
    const filterTags = doc.tags.filter((t) => t.startsWith('Filtre '));
    assert.deepEqual(filterTags, plan.filters.map((f) => FILTER_TAGS[f]), strategy.key);
    if (plan.filters.length === 0) assert.ok(doc.tags.includes('Sans filtre'));
  }
  assert.equal(strategyDoc('englobante_entry_rsi')!.parameters.find((p) => p.name === 'rsi_threshold')!.defaultText, '50');
  assert.equal(strategyDoc('ob_pullback_pure_rsi')!.parameters.find((p) => p.name === 'rsi_threshold')!.defaultText, '40');
  assert.equal(strategyDoc('fvg_pullback_multi')!.parameters.find((p) => p.name === 'min_overlap_ratio')!.defaultText, 'vide : entrée au toucher');
  assert.equal(strategyDoc('fvg_pullback_multi')!.parameters.find((p) => p.name === 'allow_multiple_entries')!.defaultText, 'non');
});

test('strategyDoc matches keys as the catalogue does; families list every strategy once, in order', () => {
  assert.equal(strategyDoc(' FVG_Impulsive ')?.key, 'fvg_impulsive');
  assert.equal(strategyDoc('nope'), undefined);
  const families = strategyFamilies();
  assert.deepEqual(families.flatMap((f) => f.keys), STRATEGIES.map((s) => s.key));
  assert.equal(new Set(families.map((f) => f.family)).size, families.length);
  assert.deepEqual(families.map((f) => f.keys.length), [6, 5, 5, 4, 4]);
});
