/**
 * A key passed in the address (docs/product.md §1.4): query parameter apiKey or token, non-blank. It is taken
 * out of the address and stored. On a payment return (/pricing?payment=...) the `token` parameter
 * belongs to the payment provider (docs/product.md §2.2), so it is not taken for a session key there.
 */

export interface UrlKeyCapture {
  /** The key found, or null. */
  readonly key: string | null;
  /** The search string without the key parameters ('' or '?a=b'). */
  readonly search: string;
  /** True when the address must be rewritten (a key parameter was present, even blank). */
  readonly changed: boolean;
}

export function captureUrlKey(search: string): UrlKeyCapture {
  const params = new URLSearchParams(search);
  const names = params.has('payment') ? ['apiKey'] : ['apiKey', 'token'];
  let key: string | null = null;
  let changed = false;
  for (const name of names) {
    if (!params.has(name)) continue;
    const value = (params.get(name) ?? '').trim();
    if (!key && value !== '') key = value;
    params.delete(name);
    changed = true;
  }
  const rest = params.toString();
  return { key, search: rest ? `?${rest}` : '', changed };
}
