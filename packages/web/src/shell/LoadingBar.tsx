import { useSyncExternalStore } from 'react';
import { loadingBar } from '../runtime.js';

export function LoadingBar() {
  const state = useSyncExternalStore(loadingBar.subscribe, loadingBar.getState, loadingBar.getState);
  return (
    <div className={`loading-bar${state.visible ? ' visible' : ''}`} role="progressbar" aria-hidden={!state.visible} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(state.value)}>
      <div className="loading-bar-fill" style={{ width: `${state.value}%` }} />
    </div>
  );
}
