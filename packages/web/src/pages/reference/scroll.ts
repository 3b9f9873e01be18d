/**
 * Scrolling on the reference pages (docs/web.md "Reference page"): anchors land 90 px below the top
 * so the sticky header does not cover them, smoothly unless the user prefers reduced motion.
 */
import { useEffect, useState } from 'react';
import { SHELL_BREAKPOINT_PX } from '../../shell/TopBar.js';

export const ANCHOR_OFFSET_PX = 90;

function behavior(): ScrollBehavior {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

export function scrollToId(id: string): void {
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
  window.scrollTo({ top, behavior: behavior() });
}

export function scrollToHash(hash: string): void {
  let id = hash.replace(/^#/, '');
  try {
    id = decodeURIComponent(id);
  } catch {
    return;
  }
  scrollToId(id);
}

/** An in-page anchor click: the hash is written (replacing the entry) and the page scrolls. */
export function followAnchor(event: { preventDefault(): void }, id: string): void {
  event.preventDefault();
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}#${id}`);
  scrollToId(id);
}

const DESKTOP_QUERY = `(min-width: ${SHELL_BREAKPOINT_PX}px)`;

/** True from the shell's breakpoint up: tables of contents are an open sidebar there, a collapsed 'Sommaire' below. */
export function useIsDesktop(): boolean {
  const [desktop, setDesktop] = useState(() => typeof window !== 'undefined' && !!window.matchMedia?.(DESKTOP_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia?.(DESKTOP_QUERY);
    if (!query) return;
    const onChange = () => setDesktop(query.matches);
    onChange();
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return desktop;
}
