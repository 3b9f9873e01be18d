import { useEffect, useState, type ReactNode } from 'react';
import { followAnchor, useIsDesktop } from './scroll.js';

/** A table of contents' open state: open from the shell's breakpoint, closed below and after a click there. */
export function useTocState() {
  const desktop = useIsDesktop();
  const [open, setOpen] = useState(desktop);
  useEffect(() => setOpen(desktop), [desktop]);
  return { desktop, open, setOpen, closeOnPhone: () => !desktop && setOpen(false) };
}

/** The collapsible 'Sommaire' of the reference pages (docs/web.md "Reference page"). */
export function Toc({ state, children, testId }: { state: ReturnType<typeof useTocState>; children: ReactNode; testId?: string }) {
  return (
    <nav className="toc card" aria-label="Sommaire" data-testid={testId}>
      <details open={state.open} onToggle={(e) => state.setOpen(e.currentTarget.open)}>
        <summary>Sommaire</summary>
        {children}
      </details>
    </nav>
  );
}

/** In-page anchors: each click writes the hash, scrolls, and on phones closes the contents. */
export function TocAnchors({ sections, state }: { sections: readonly { id: string; label: string }[]; state: ReturnType<typeof useTocState> }) {
  return (
    <ol>
      {sections.map((s) => (
        <li key={s.id}>
          <a
            href={`#${s.id}`}
            onClick={(e) => {
              followAnchor(e, s.id);
              state.closeOnPhone();
            }}
          >
            {s.label}
          </a>
        </li>
      ))}
    </ol>
  );
}
