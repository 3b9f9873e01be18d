/**
 * Rows the statistics modal hides (docs/product.md §1.2, docs/product.md §2.2): the bookkeeping rows run_id, user_id
 * and run_seq always; the stop-loss and TP1 size rows when the stop is internal (their pips
 * mean nothing there: the stop sits at the zone's edge and TP1 at 1R).
 */
export const ALWAYS_HIDDEN_METRICS: ReadonlySet<string> = new Set(['run_id', 'user_id', 'run_seq']);

/** Config metrics that carry the stop and TP1 sizes (the names we write, and older spellings). */
export const STOP_SIZE_METRICS: ReadonlySet<string> = new Set(['sl_pips', 'tp1_pips', 'sl', 'tp1', 'sl_size', 'tp1_size', 'stop_loss', 'take_profit_1']);

/** A Config sheet as the readers return it (rows of [metric, value]) or as buildReport takes it. */
export type ConfigRows = ReadonlyArray<readonly unknown[]> | ReadonlyArray<{ readonly metric: unknown; readonly value: unknown }>;

function metricKey(metric: unknown): string {
  return String(metric ?? '').trim().toLowerCase();
}

/** The value of one Config metric (case-insensitive name), or undefined. */
export function configValue(config: ConfigRows | null | undefined, metric: string): unknown {
  if (!config) return undefined;
  const key = metricKey(metric);
  for (const row of config) {
    const [m, v] = Array.isArray(row) ? row : [(row as { metric: unknown }).metric, (row as { value: unknown }).value];
    if (metricKey(m) === key) return v;
  }
  return undefined;
}

/**
 * Whether a result used an internal stop: its folder has the `_sl0` part (as a whole part, so
 * `_sl0.5` is a 0.5-pip external stop, not `_sl0`), or its Config says sl_mode = internal.
 */
export function usesInternalStop(context: { readonly folder?: string | null; readonly config?: ConfigRows | null }): boolean {
  if (context.folder && /_sl0(?![\d.])/i.test(context.folder)) return true;
  return metricKey(configValue(context.config, 'sl_mode')) === 'internal';
}

/** Whether the modal hides the row labelled `metric` (first cell of a metric/value row). */
export function isHiddenMetric(metric: unknown, internalStop: boolean): boolean {
  const key = metricKey(metric);
  return ALWAYS_HIDDEN_METRICS.has(key) || (internalStop && STOP_SIZE_METRICS.has(key));
}

/** The rows of a metric/value sheet (Config, Global, TP2_Global) the modal shows. */
export function visibleMetricRows<R extends readonly unknown[]>(
  rows: readonly R[],
  context: { readonly folder?: string | null; readonly config?: ConfigRows | null },
): R[] {
  const internalStop = usesInternalStop(context);
  return rows.filter((row) => !isHiddenMetric(row[0], internalStop));
}
