/**
 * The `next` parameter (docs/product.md §1.5): a path on this site, starting with a single '/', never an
 * absolute http(s) URL; anything else falls back to /home. Protocol-relative ('//evil') and
 * backslash tricks ('/\\evil') are refused too, since browsers read them as another host.
 */
export const DEFAULT_NEXT = '/home';

export function safeNext(raw: string | null | undefined): string {
  if (typeof raw !== 'string') return DEFAULT_NEXT;
  const value = raw.trim();
  if (value === '' || !value.startsWith('/')) return DEFAULT_NEXT;
  if (/^https?:/i.test(value)) return DEFAULT_NEXT;
  if (value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_NEXT;
  // Control characters can smuggle a scheme past the checks above in some browsers.
  if (/[\u0000-\u001f\u007f]/.test(value)) return DEFAULT_NEXT;
  return value;
}
