import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import send from 'koa-send';
import type { AppContext } from '../app/context.js';
import { isApiPath } from '../app/paths.js';

/**
 * Serves the built web app (packages/web/dist) beside the API, so one process and one origin give
 * the whole product. Vite names its bundles after their content (assets/*-HASH.js), so those are
 * cached for a year; index.html is revalidated every time, else a deploy would leave browsers on
 * stale bundle names. Any other GET that is not a file gets index.html: the app's router owns the
 * route table (docs/product.md §3.2), including its redirect of unknown paths to /home.
 */
export function webApp(distDir: string): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx as AppContext)) return next();
    if (ctx.path !== '/' && !ctx.path.endsWith('/')) {
      try {
        const immutable = ctx.path.startsWith('/assets/');
        // send answers nothing (and returns '') for a hidden file such as /.env.
        if (await send(ctx, ctx.path, { root: distDir, immutable, maxage: immutable ? 365 * 24 * 3600_000 : 0 })) return;
      } catch (err) {
        // Not a file (404), or a path send refuses (hidden file, outside root, malformed): fall
        // back to the app shell, which shows its own page for it.
        const status = (err as { status?: number }).status;
        if (status !== 404 && status !== 400 && status !== 403) throw err;
      }
    }
    if (ctx.path.startsWith('/assets/')) return next();
    await send(ctx, 'index.html', { root: distDir });
    ctx.set('Cache-Control', 'no-cache');
  };
}

/** packages/web/dist in this repository (the same from src/ and dist/). */
export function defaultWebDist(): string {
  return fileURLToPath(new URL('../../../web/dist', import.meta.url));
}

/** The app's dist folder if it holds a build, else null (the server then serves the API alone). */
export function builtWebDist(dir: string): string | null {
  return existsSync(join(dir, 'index.html')) ? dir : null;
}
