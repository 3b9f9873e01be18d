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
