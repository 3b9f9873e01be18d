/**
 * Arrow keys in a group of controls with one tab stop (WAI-ARIA "roving tabindex"): the tabs of
 * the statistics modal (Left/Right/Home/End) and the avatar's colour radios (the four arrows,
 * Home/End). docs/web.md, "Keyboard in groups". Plain logic: the components only move focus and select.
 */

/**
 * Which arrows move: a row of tabs takes Left/Right only (Up/Down still scroll the page); a column
 * of tabs (the admin console's sidebar) Up/Down only; a radio group all four.
 */
export type RovingAxis = 'horizontal' | 'vertical' | 'both';

/**
 * The index the key moves to among `count` controls from `current` (wrapping at both ends), or
 * null when the key is not one of the group's (the browser keeps its default then).
 */
export function rovingIndex(key: string, current: number, count: number, axis: RovingAxis = 'horizontal'): number | null {
  if (count <= 0) return null;
  const from = current >= 0 && current < count ? current : 0;
  const next = (axis !== 'vertical' && key === 'ArrowRight') || (axis !== 'horizontal' && key === 'ArrowDown');
  const previous = (axis !== 'vertical' && key === 'ArrowLeft') || (axis !== 'horizontal' && key === 'ArrowUp');
  if (next) return (from + 1) % count;
  if (previous) return (from - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** The one control of the group Tab stops on: the selected one, else the first. */
export function rovingTabIndex(index: number, selected: number): 0 | -1 {
  return index === (selected >= 0 ? selected : 0) ? 0 : -1;
}
