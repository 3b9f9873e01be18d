// The workbook-wide parts the sheets share: cell styles, shared strings, and XML text rules.

/** Excel's limits: longer text or more rows make Excel "repair" (truncate) the file. */
export const MAX_CELL_TEXT = 32_767;
export const MAX_ROWS = 1_048_576;

/** Number formats Excel knows by id; others get ids from 164 on. */
const BUILTIN_FORMATS: Readonly<Record<string, number>> = { '0': 1, '0.00': 2, '0%': 9, '0.00%': 10 };

// Characters XML 1.0 forbids; Excel refuses a file that contains them.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Any character escapeXml changes. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff&<>"\r]/;

export function escapeXml(text: string): string {
  // Most texts (labels, numbers as text) need nothing: one test instead of six replacements.
  if (!NEEDS_ESCAPE.test(text)) return text;
  // \r is escaped too: XML parsers turn a literal one into \n.
  return text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;');
}

export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** Cell styles (cellXfs): 0 General, 1 bold header, then one per distinct number format. */
export class Styles {
  private readonly formatIds = new Map<string, number>();
  private readonly customFormats: Array<[number, string]> = [];
  private readonly xfByFormat = new Map<string, number>();
  private readonly xfs: number[] = [];

  styleOf(format: string | null): number {
    if (format === null || format === 'General') return 0;
    let xf = this.xfByFormat.get(format);
    if (xf === undefined) {
      let id = BUILTIN_FORMATS[format] ?? this.formatIds.get(format);
      if (id === undefined) {
        id = 164 + this.customFormats.length;
        this.formatIds.set(format, id);
        this.customFormats.push([id, format]);
      }
      xf = 2 + this.xfs.length;
      this.xfs.push(id);
      this.xfByFormat.set(format, xf);
    }
    return xf;
  }

  xml(): string {
    const numFmts = this.customFormats.length
      ? `<numFmts count="${this.customFormats.length}">${this.customFormats.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`).join('')}</numFmts>`
      : '';
    const xfs = this.xfs.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
    return (
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      numFmts +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${2 + this.xfs.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
      xfs +
      '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}

export class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly list: string[] = [];
  count = 0;

  id(text: string): number {
    this.count++;
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(text);
      this.index.set(text, i);
    }
    return i;
  }

  xml(): string {
    const items = this.list.map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('');
    return (
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.count}" uniqueCount="${this.list.length}">${items}</sst>`
    );
  }
}
