import type { Next } from 'koa';
import type { AppContext } from './context.js';
import { badRequest } from './errors.js';

/**
 * How deep a request's JSON may nest. The API's deepest body is two levels (`params` or
 * `spread_by_hour` inside the body); 32 leaves room for any client. Past it, JSON.parse still
 * succeeds (it is iterative), but the recursive code after it does not: JSON.stringify, String()
 * of an array, or a message quoting the value throw a RangeError (a 500) at about 10,000 levels,
 * which 20 KB of `[` reach well within the body limit.
 */
export const MAX_JSON_DEPTH = 32;

export const JSON_DEPTH_MESSAGES = {
  body: `Corps de requête invalide : données imbriquées sur plus de ${MAX_JSON_DEPTH} niveaux.`,
  field: (field: string) => `Champ « ${field.slice(0, 40)} » : données imbriquées sur plus de ${MAX_JSON_DEPTH} niveaux.`,
} as const;

/** True when `value` nests objects or arrays more than `max` levels deep (walked without recursion). */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** After the body parser: a parsed body nested past MAX_JSON_DEPTH is refused (400) before any route reads it. */
export async function refuseDeepBodies(ctx: AppContext, next: Next): Promise<void> {
  const body: unknown = ctx.request.body;
  if (body !== null && typeof body === 'object' && nestsDeeperThan(body)) throw badRequest(JSON_DEPTH_MESSAGES.body);
  await next();
}

