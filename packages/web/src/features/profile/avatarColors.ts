/**
 * The avatar colours the profile offers, each with the French name a screen reader says (the
 * swatches are buttons without text: read as '#dc2626' they told nothing). docs/web.md, "Profile".
 */
import { AVATAR_PALETTE, normalizeHexColor } from '../../shell/avatar.js';

/** The 9 derived blues and indigos (shell/avatar.ts, dark to light), then warm and green tones. */
const NAMES: Readonly<Record<string, string>> = {
  '#1e3a8a': 'Bleu nuit',
  '#1e40af': 'Bleu marine',
  '#1d4ed8': 'Bleu roi',
  '#2563eb': 'Bleu vif',
  '#3b82f6': 'Bleu',
  '#60a5fa': 'Bleu ciel',
  '#3730a3': 'Indigo foncé',
  '#4f46e5': 'Indigo',
  '#818cf8': 'Lavande',
  '#0f766e': 'Bleu canard',
  '#16a34a': 'Vert',
  '#ca8a04': 'Moutarde',
  '#ea580c': 'Orange',
  '#dc2626': 'Rouge',
  '#db2777': 'Framboise',
  '#9333ea': 'Violet',
  '#475569': 'Gris ardoise',
};

/** More than the 9 derived blues: a few warm and green tones (any other comes from the colour input). */
const EXTRA_COLORS = ['#0f766e', '#16a34a', '#ca8a04', '#ea580c', '#dc2626', '#db2777', '#9333ea', '#475569'] as const;
export const AVATAR_CHOICES: readonly string[] = [...AVATAR_PALETTE, ...EXTRA_COLORS];

/** The colour's French name; one picked with the colour input is 'Couleur personnalisée (#12ab34)'. */
export function avatarColorName(color: string): string {
  const hex = normalizeHexColor(color);
  if (!hex) return 'Couleur personnalisée';
  return NAMES[hex] ?? `Couleur personnalisée (${hex})`;
}
