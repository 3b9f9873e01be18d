import { useEffect, useRef, type DependencyList } from 'react';

/**
 * A host element that an Observable Plot figure is drawn into at its current width, and drawn
 * again when the width changes (375 px phones to wide screens).
 */
export function usePlot(draw: (width: number) => Element, deps: DependencyList, enabled = true) {
  const host = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const node = host.current;
    if (!node || !enabled) return;
    let width = -1;
    const render = () => {
      const next = Math.max(280, Math.floor(node.clientWidth || 600));
      if (next === width) return;
      width = next;
      node.replaceChildren(draw(next));
    };
    render();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(render) : null;
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      node.replaceChildren();
    };
    // The caller lists what the figure depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, ...deps]);
  return host;
}
