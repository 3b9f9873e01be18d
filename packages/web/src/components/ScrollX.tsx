import { useEffect, useRef, useState, type MutableRefObject, type ReactNode } from 'react';

interface ScrollXProps {
  children: ReactNode;
  className?: string;
  /** Names the scrolling region for screen readers (it takes the keyboard focus to scroll). */
  label?: string;
  testId?: string;
  /** Also given the box element (a caller that measures the box, e.g. to size a chart). */
  boxRef?: MutableRefObject<HTMLDivElement | null>;
}

/**
 * A box that scrolls sideways (a wide table on a 375 px phone) instead of widening the page, and
 * says so: while more columns hide past an edge, that edge fades out (`data-more-start` /
 * `data-more-end`, styles.css "Sideways scrolling").
 */
export function ScrollX({ children, className, label, testId, boxRef }: ScrollXProps) {
  const box = useRef<HTMLDivElement | null>(null);
  const [edges, setEdges] = useState({ start: false, end: false });

  useEffect(() => {
    const node = box.current;
    if (!node) return;
    const update = () => {
      const hidden = node.scrollWidth - node.clientWidth;
      const start = hidden > 1 && node.scrollLeft > 1;
      const end = hidden > 1 && node.scrollLeft < hidden - 1;
      setEdges((previous) => (previous.start === start && previous.end === end ? previous : { start, end }));
    };
    update();
    node.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    observer?.observe(node);
    if (node.firstElementChild) observer?.observe(node.firstElementChild);
    // Content redrawn in place (a chart replaced by another) may change the width without resizing the child.
    const mutations = typeof MutationObserver === 'function' ? new MutationObserver(update) : null;
    mutations?.observe(node, { childList: true, subtree: true });
    return () => {
      node.removeEventListener('scroll', update);
      observer?.disconnect();
      mutations?.disconnect();
    };
  }, []);

  const scrolls = edges.start || edges.end;
  return (
    <div
      ref={(node) => {
        box.current = node;
        if (boxRef) boxRef.current = node;
      }}
      className={`scroll-x${className ? ` ${className}` : ''}`}
      data-more-start={edges.start ? '' : undefined}
      data-more-end={edges.end ? '' : undefined}
      // Only a box that scrolls takes the focus (arrow keys then scroll it).
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls && label ? 'region' : undefined}
      aria-label={scrolls ? label : undefined}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
