import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FONT_FILES, loadPdfFonts } from '../src/pdf/fonts.js';

// The PDFs' font (src/pdf/fonts.ts, docs/payments.md "Invoices"): shipped in the repository and
// copied by the build beside the compiled module, which looks for it next to itself. The pieces a
// line with right-to-left words is drawn in: test/pdf-bidi-order.test.ts.

const server = fileURLToPath(new URL('..', import.meta.url));

describe('the PDFs font', () => {
  it('is read from the repository, with its license, not from the system fonts', () => {
    for (const file of Object.values(FONT_FILES)) {
      const path = fileURLToPath(file);
      assert.ok(path.startsWith(join(server, 'src', 'pdf', 'fonts')), path);
      assert.equal(readFileSync(path).readUInt32BE(0), 0x00010000, `${path} is a TrueType font`);
    }
    assert.match(readFileSync(join(server, 'src', 'pdf', 'fonts', 'LICENSE'), 'utf8'), /Bitstream Vera Fonts Copyright/);
  });

  it('is copied by the build where the compiled module looks for it (dist/pdf/fonts/)', () => {
    const out = mkdtempSync(join(tmpdir(), 'bt-assets-'));
    try {
      execFileSync(process.execPath, [join(server, 'scripts', 'copy-assets.mjs'), out]);
      for (const file of Object.values(FONT_FILES)) {
        // dist/ mirrors src/: the font's path relative to src/ is its path relative to dist/.
        const built = join(out, relative(join(server, 'src'), fileURLToPath(file)));
        assert.ok(existsSync(built), built);
        assert.deepEqual(readFileSync(built), readFileSync(file));
      }
      assert.ok(existsSync(join(out, 'pdf', 'fonts', 'LICENSE')));
      assert.ok(existsSync(join(out, 'strategies', 'sandbox', 'runner', 'main.py')), 'the sandbox runner is still copied');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('draws Latin, Polish, Cyrillic, Greek, Arabic and Hebrew letters, the euro and the replacement character; not Chinese', async () => {
    const { hasGlyph } = await loadPdfFonts();
    for (const ch of 'AéŁżДжΓώمحשל€…’�') assert.ok(hasGlyph(ch.codePointAt(0)!), ch);
    for (const ch of ['李', '名', '🦄']) assert.equal(hasGlyph(ch.codePointAt(0)!), false, ch);
  });
});
