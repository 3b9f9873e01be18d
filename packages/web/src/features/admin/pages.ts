/** The admin console's paged lists: the paging of features/paging, and the console's count line. */
import { formatCount } from './format.js';

export * from '../paging/pages.js';

/** "20 sur 1 234" (then the unit, if any): the rows shown out of the listing's count. */
export function shownOf(shown: number, total: number, unit = ''): string {
  const line = `${formatCount(Math.min(shown, total))} sur ${formatCount(total)}`;
  return unit ? `${line} ${unit}` : line;
}
