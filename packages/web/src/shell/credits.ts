/**
 * The credits badge (docs/product.md §1.3): the first usable numeric field among credits, credit,
 * credit_balance, remaining_credits, creditsLeft, balance_credits; an em dash otherwise.
 * "Usable" means a finite number, or a string holding one (servers send either).
 */
export const CREDIT_FIELDS = ['credits', 'credit', 'credit_balance', 'remaining_credits', 'creditsLeft', 'balance_credits'] as const;

export function usableNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '' || !/^[-+]?\d+([.,]\d+)?$/.test(trimmed)) return null;
    const parsed = Number(trimmed.replace(',', '.'));
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function creditBalance(user: Record<string, unknown> | null | undefined): number | null {
  if (!user) return null;
  for (const field of CREDIT_FIELDS) {
    const value = usableNumber(user[field]);
    if (value !== null) return value;
  }
  return null;
}

export function creditsBadgeText(user: Record<string, unknown> | null | undefined): string {
  const balance = creditBalance(user);
  return balance === null ? '—' : new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 }).format(balance);
}
