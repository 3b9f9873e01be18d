import { useEffect } from 'react';
import { loadingBar } from '../runtime.js';

/** Shown while a page's code loads: drives the loading bar, draws nothing else. */
export function RouteFallback() {
  useEffect(() => loadingBar.start(), []);
  return <div className="route-fallback" aria-busy="true" />;
}
