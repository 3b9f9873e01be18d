/**
 * The code points a TrueType font draws: read from its `cmap` table (the Unicode subtable,
 * format 12 or 4, as the OpenType specification lays them out). pdfkit draws a code point the
 * font lacks as glyph 0, an empty box that copies as U+0000; the PDFs replace such characters
 * first (docs/payments.md "Invoices").
 */
export function fontCoverage(ttf: Buffer): Set<number> {
  const tables = ttf.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const record = 12 + i * 16;
    if (ttf.toString('latin1', record, record + 4) === 'cmap') cmap = ttf.readUInt32BE(record + 8);
  }
  if (cmap < 0) throw new Error('font without a cmap table');

  // Subtables by preference: full Unicode (format 12), then the Basic Multilingual Plane (format 4).
  const subtables = new Map<string, number>();
  for (let i = 0; i < ttf.readUInt16BE(cmap + 2); i++) {
    const record = cmap + 4 + i * 8;
    const at = cmap + ttf.readUInt32BE(record + 4);
    subtables.set(`${ttf.readUInt16BE(record)}/${ttf.readUInt16BE(record + 2)}/${ttf.readUInt16BE(at)}`, at);
  }
  const full = subtables.get('3/10/12') ?? subtables.get('0/4/12') ?? subtables.get('0/6/12');
  if (full !== undefined) return format12(ttf, full);
  const bmp = subtables.get('3/1/4') ?? subtables.get('0/3/4');
  if (bmp !== undefined) return format4(ttf, bmp);
  throw new Error('font without a Unicode cmap subtable');
}

function format12(ttf: Buffer, at: number): Set<number> {
  const covered = new Set<number>();
  const groups = ttf.readUInt32BE(at + 12);
  for (let i = 0; i < groups; i++) {
    const group = at + 16 + i * 12;
    const [first, last, glyph] = [ttf.readUInt32BE(group), ttf.readUInt32BE(group + 4), ttf.readUInt32BE(group + 8)];
    for (let code = first; code <= last; code++) if (glyph + code - first !== 0) covered.add(code);
  }
  return covered;
}

function format4(ttf: Buffer, at: number): Set<number> {
  const covered = new Set<number>();
  const segments = ttf.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const [first, last] = [ttf.readUInt16BE(starts + s * 2), ttf.readUInt16BE(ends + s * 2)];
    const delta = ttf.readUInt16BE(deltas + s * 2);
    const rangeOffset = ttf.readUInt16BE(rangeOffsets + s * 2);
    for (let code = first; code <= last && code !== 0xffff; code++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
      else {
        const raw = ttf.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (code - first) * 2);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) covered.add(code);
    }
  }
  return covered;
}
