/**
 * Binds lib/roving.ts to a group of buttons (tabs, radios): one Tab stop, the arrows, Home and End
 * move the focus and choose (docs/web.md "Keyboard in groups"). Spread `onKeyDown` on the group
 * and `item(i)` on each of its controls.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { rovingIndex, rovingTabIndex, type RovingAxis } from './roving.js';

export function useRovingGroup(count: number, selected: number, choose: (index: number) => void, axis: RovingAxis = 'horizontal') {
  const nodes = useRef<(HTMLElement | null)[]>([]);
  // The control a key just moved to holds the Tab stop at once: a choice made through the router
  // is a transition React may render later, and Tab pressed meanwhile must not land on the
  // previous choice's control (docs/web.md "Keyboard in groups").
  const [moved, setMoved] = useState<number | null>(null);
  useEffect(() => setMoved(null), [selected]);
  return {
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const focused = nodes.current.findIndex((node) => node !== null && node === document.activeElement);
      const target = rovingIndex(event.key, focused >= 0 ? focused : selected, count, axis);
      if (target === null) return;
      event.preventDefault();
      setMoved(target);
      choose(target);
      nodes.current[target]?.focus();
    },
    item(index: number) {
      return {
        ref: (node: HTMLElement | null) => {
          nodes.current[index] = node;
        },
        tabIndex: rovingTabIndex(index, moved ?? selected),
      };
    },
  };
}
