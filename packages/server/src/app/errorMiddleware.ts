import type { Next } from 'koa';
import { ParamError } from '@bt/core/params';
import { AccountGoneError, InsufficientCreditsError } from '../credits/ledger.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { StoragePathError } from '../storage/local.js';
import type { AppContext } from './context.js';
import { HttpError } from './errors.js';
import { MSG } from './messages.js';
import { OptionalModuleError } from './optional-module.js';
import { isApiPath } from './paths.js';
import { redactUrl } from '../logging/logger.js';
import { frenchParamMessage } from './param-messages.js';

const GENERIC: Record<number, string> = {
  400: MSG.bodyInvalid,
  401: MSG.notAuthenticated,
  404: MSG.notFound,
  405: MSG.methodNotAllowed,
  413: MSG.bodyTooLarge,
  415: MSG.bodyInvalid,
  501: MSG.methodNotAllowed,
};

/**
 * The one place errors become responses: `{ detail }` in French with the status of docs/architecture.md §3.
 * Only HttpError messages are ours to show; any other error's text (a SQL statement, a stack,
 * a library's English) stays in the server log and the client gets a generic sentence.
 */
export function errorMiddleware(log: (message: string) => void) {
  return async (ctx: AppContext, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && isApiPath(ctx)) {
        ctx.status = 404;
        ctx.body = { detail: MSG.notFound };
      }
    } catch (err) {
      let status = 500;
      let detail: string = MSG.serverError;
      let extra: Record<string, unknown> = {};
      if (err instanceof HttpError) {
        status = err.status;
        detail = err.message;
        extra = err.body;
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      } else if (err instanceof ParamError) {
        // A strategy parameter a service could not use (core's normaliser): the user's input.
        status = 400;
        detail = frenchParamMessage(err);
      } else if (err instanceof InsufficientCreditsError) {
        // A paid action the ledger refused: 402 (docs/architecture.md §3), whichever route called spend().
        status = 402;
        detail = MSG.insufficientCredits(err.needed, err.balance);
      } else if (err instanceof AccountGoneError) {
        // A paid action whose account was deleted while it ran (another tab, an admin): the key
        // is gone with it, as for any request after a deletion.
        status = 401;
        detail = MSG.invalidApiKey;
      } else if (err instanceof StoragePathError) {
        status = 400;
        detail = MSG.invalidPath;
      } else if (err instanceof OptionalModuleError) {
        // A feature's own dependency would not load (app/optional-module.ts): the server's fault,
        // said in the log with the module's name; the client learns the feature is unavailable.
        status = 503;
        detail = MSG.featureUnavailable;
      } else if (isDatabaseUnavailable(err)) {
        // Stopped, restarting, or out of connections: try again later, nothing the client did.
        status = 503;
        detail = MSG.databaseDown;
      } else {
        const candidate = Number((err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode);
        if (Number.isInteger(candidate) && ((candidate >= 400 && candidate < 500) || candidate === 501)) {
          status = candidate;
          detail = GENERIC[candidate] ?? MSG.bodyInvalid;
        }
      }
      if (status >= 500) {
        // The path as the access line logs it: a reset or verification link's token, or a route
        // parameter named like a key, never reaches the log (docs/deployment.md, "Logs").
        const params = (ctx as unknown as { params?: Record<string, string> }).params;
        log(`${ctx.method} ${redactUrl(ctx.path, params)} failed: ${describe(err)}`);
      }
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = { ...extra, detail };
    }
  };
}

/** Name, message, the failing SQL of a database error, then the stack: for the server log only. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const sql = (err as { sql?: unknown }).sql;
  const parent = (err as { parent?: Error }).parent;
  const lines = [`${err.name}: ${err.message || parent?.message || ''}`];
  if (typeof sql === 'string') lines.push(`SQL: ${sql}`);
  if (err.stack) lines.push(err.stack.split('\n').slice(1).join('\n'));
  return lines.join('\n');
}
