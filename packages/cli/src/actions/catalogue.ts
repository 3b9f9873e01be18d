// `bt strategies`, `bt params KEY`, `bt symbols`: the catalogue as tables or JSON.
import { getParam, getStrategy, paramDefaults, STRATEGIES, SYMBOLS, type AssetClass } from '@bt/core/catalogue';
import { asUsage, quoted, UsageError } from '../errors.js';
import { jsonHeader, print, printJson, renderTable, styles } from '../output.js';

export function strategiesCommand(flags: { json?: boolean }): void {
  if (flags.json) {
    printJson({ ...jsonHeader('strategies'), strategies: STRATEGIES.map((s) => ({ ...s })) });
    return;
  }
  const s = styles();
  const rows = STRATEGIES.map((d) => [d.key, d.family, d.entryMode, d.filters.join('+') || '-', d.label]);
  print(renderTable(['key', 'family', 'entry', 'filters', 'label'], rows, { header: s.dim }));
  print(s.dim(`\n${STRATEGIES.length} strategies · bt params KEY for a strategy's parameters`));
}

const show = (v: unknown) => (v === undefined ? '(unset)' : typeof v === 'string' ? v : JSON.stringify(v));

export function paramsCommand(key: string, flags: { json?: boolean }): void {
  const strategy = asUsage(() => getStrategy(key));
  const defaults = paramDefaults(strategy.key);
  const params = strategy.params.map((name) => {
    const p = getParam(name);
    return {
      name,
      type: p.type,
      default: Object.hasOwn(defaults, name) ? defaults[name] : null,
      ...(p.min !== undefined ? { min: p.min } : {}),
      ...(p.max !== undefined ? { max: p.max } : {}),
      ...(p.choices ? { choices: p.choices } : {}),
      level: p.level,
      label: p.label,
      description: p.description,
    };
  });
  if (flags.json) {
    printJson({ ...jsonHeader('params'), strategy: strategy.key, params });
    return;
  }
  const s = styles();
  print(s.bold(`${strategy.key} · ${strategy.label}`));
  print(s.dim(strategy.short));
  print('');
  const bounds = (p: (typeof params)[number]) =>
    'choices' in p ? p.choices!.join('|') : 'min' in p || 'max' in p ? `${'min' in p ? p.min : ''}..${'max' in p ? p.max : ''}` : '';
  print(renderTable(['name', 'type', 'default', 'range', 'level', 'label'], params.map((p) => [p.name, p.type, show(p.default ?? undefined), bounds(p), p.level, p.label]), { header: s.dim }));
  print(s.dim(`\nSet them with --param name=value (aliases and value rules: docs/parameters.md).`));
}

const CLASSES: readonly AssetClass[] = ['forex', 'metal', 'energy', 'agriculture', 'index', 'crypto'];

export function symbolsCommand(flags: { json?: boolean; class?: string }): void {
  let list = SYMBOLS;
  if (flags.class !== undefined) {
    const wanted = flags.class.trim().toLowerCase();
    if (!(CLASSES as readonly string[]).includes(wanted)) throw new UsageError(`invalid --class: ${quoted(flags.class)} (expected one of ${CLASSES.join(', ')})`);
    list = SYMBOLS.filter((s) => s.assetClass === wanted);
  }
  if (flags.json) {
    printJson({ ...jsonHeader('symbols'), symbols: list.map((s) => ({ ...s })) });
    return;
  }
  const s = styles();
  print(renderTable(['symbol', 'label', 'class', 'pip size'], list.map((d) => [d.symbol, d.label, d.assetClass, String(d.pipSize)]), { header: s.dim }));
  print(s.dim(`\n${list.length} symbols`));
}
