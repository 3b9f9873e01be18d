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
}

export type AppContext = ParameterizedContext<AppState>;
export type RouteContext = RouterContext<AppState>;
