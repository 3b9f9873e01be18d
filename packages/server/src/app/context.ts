import type { ParameterizedContext } from 'koa';
import type { RouterContext } from '@koa/router';
import type { User } from '../db/models.js';

export interface AppState {
  /** Set by the authentication middleware when the request carries a valid key. */
  auth?: { user: User; keyId: number };
  /** Whether a key was sent at all (to tell "no key" from "bad key"). */
  keySent?: boolean;
  /** The path as every guard compares it (app/paths.ts), set before any guard runs. */
  guardPath?: string;
  /** A body the parser did not read, by its type ('' without one): 415 for a route that reads its body (app/content-type.ts). */
  unreadBody?: string;
}

export type AppContext = ParameterizedContext<AppState>;
export type RouteContext = RouterContext<AppState>;
