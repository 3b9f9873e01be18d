/**
 * Binds lib/roving.ts to a group of buttons (tabs, radios): one Tab stop, the arrows, Home and End
 * move the focus and choose (docs/web.md "Keyboard in groups"). Spread `onKeyDown` on the group
 * and `item(i)` on each of its controls.
 */
import { useRef, type KeyboardEvent } from 'react';
import { rovingIndex, rovingTabIndex, type RovingAxis } from './roving.js';

export function useRovingGroup(count: number, selected: number, choose: (index: number) => void, axis: RovingAxis = 'horizontal') {
  const nodes = useRef<(HTMLElement | null)[]>([]);
  return {
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const focused = nodes.current.findIndex((node) => node !== null && node === document.activeElement);
      const target = rovingIndex(event.key, focused >= 0 ? focused : selected, count, axis);
      if (target === null) return;
      event.preventDefault();
      choose(target);
      nodes.current[target]?.focus();
    },
    item(index: number) {
      return {
        ref: (node: HTMLElement | null) => {
          nodes.current[index] = node;
        },
        tabIndex: rovingTabIndex(index, selected),
      };
    },
  };
}
