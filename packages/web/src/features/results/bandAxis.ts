/** The x axis of the band charts (win rate by hour, session, weekday) at any width, 375 px phones included. */

/** Roughly how wide a character of the 11 px axis labels is, and the gap kept between labels. */
const CHAR_PX = 6.5;
const GAP_PX = 6;
/** Across rotated labels, the room one needs (their line height, with a little air). */
const ROTATED_PX = 16;

/**
 * The x axis of a band chart at a given width: every label when each has room; otherwise every
 * 2nd, 3rd… (a 375 px phone shows the 24 hours as 00h, 02h, 04h…, the bars keep their full
 * domain), longer labels (session names) all kept but written at an angle, with the
 * bottom margin they then need. Labels are never written over each other.
 */
export function bandAxis(domain: string[], width: number, marginLeft = 44, marginRight = 20): { ticks: string[]; tickRotate: number; marginBottom: number } {
  const perBand = (width - marginLeft - marginRight) / Math.max(1, domain.length);
  const longest = Math.max(1, ...domain.map((label) => label.length)) * CHAR_PX;
  const flatStep = Math.ceil((longest + GAP_PX) / perBand);
  // Short labels (hours) are thinned and stay flat; long ones (sessions) are all kept, at an angle.
  if (flatStep <= 1 || longest <= 40) {
    const step = Math.max(1, flatStep);
    return { ticks: step === 1 ? domain : domain.filter((_, i) => i % step === 0), tickRotate: 0, marginBottom: 36 };
  }
  // At -45°, labels sit perBand·sin 45° apart across their direction.
  const step = Math.max(1, Math.ceil(ROTATED_PX / (perBand * Math.SQRT1_2)));
  return {
    ticks: step === 1 ? domain : domain.filter((_, i) => i % step === 0),
    tickRotate: -45,
    marginBottom: Math.min(110, Math.ceil(longest * Math.SQRT1_2) + 16),
  };
}
