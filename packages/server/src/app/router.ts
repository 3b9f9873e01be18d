import Router, { type RouterOptions } from '@koa/router';
import type { AppState } from './context.js';

/**
 * Every API router: case-sensitive (`/api/Admin/x` is not `/api/admin/x`), one trailing slash
 * accepted. Guards compare the normalised path of app/paths.ts, which covers both spellings.
 */
export function apiRouter(options: Omit<RouterOptions, 'sensitive'> = {}): Router<AppState> {
  return new Router<AppState>({ ...options, sensitive: true });
}
