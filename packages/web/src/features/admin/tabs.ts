/** The console's tabs, in the sidebar's order, and the `?tab=` value that deep-links each. */
export const ADMIN_TABS = [
  { key: 'users', label: 'Utilisateurs' },
  { key: 'history', label: 'Historique' },
  { key: 'stats', label: 'Statistiques' },
  { key: 'backtests', label: 'Backtests' },
  { key: 'strategies', label: 'Stratégies' },
  { key: 'disk', label: 'Disk' },
  { key: 'maintenance', label: 'Maintenance' },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]['key'];

/** The tab an address names; anything else is the first tab. */
export function tabOf(value: string | null | undefined): AdminTab {
  const found = ADMIN_TABS.find((t) => t.key === (value ?? '').trim().toLowerCase());
  return found ? found.key : 'users';
}
