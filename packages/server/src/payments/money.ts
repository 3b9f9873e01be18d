/**
 * Amounts in euro cents shown in French: `10,50 €`. Written by hand rather than with
 * Intl.NumberFormat, whose narrow no-break space the invoice fonts (WinAnsi) cannot draw.
 */
export function euros(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${sign}${units},${String(abs % 100).padStart(2, '0')} €`;
}

/**
 * The cents of a paid payment gone back to the buyer: refunded, or held by a dispute open or
 * lost, never more than was paid. At PayPal the money of a lost dispute leaves by a refund or a
 * reversal of the same capture, also notified: the larger of the two there, their sum elsewhere
 * (docs/payments.md "Refunds and disputes"). The admin's `global_stats` computes the same in SQL.
 */
export function reversedCents(payment: { provider: string; paidCents: number; refundedCents: number; disputedCents: number }): number {
  const { provider, paidCents, refundedCents, disputedCents } = payment;
  return Math.max(0, Math.min(paidCents, provider === 'paypal' ? Math.max(refundedCents, disputedCents) : refundedCents + disputedCents));
}
