import { AsciiSink } from './bytes.js';
import type { RawDeflate } from './deflate.js';
import { zipParts, type ZipPart } from './zip.js';

/**
 * A small SpreadsheetML (Office Open XML) writer for the run workbook: values, number
 * formats, a bold frozen header row, column widths and an auto-filter. Nothing else.
 *
 * Why not exceljs for writing: on this machine exceljs needs 450-900 ms to write a workbook
 * with 3,000 trades (its per-cell XML and style machinery, then pure-JS deflate), while a
 * whole run with its workbook must fit in 250 ms. Building the XML as strings and deflating
 * natively (report/zip.ts) takes a few tens of ms. exceljs still reads every workbook
 * (report/reader.ts), and the tests read this writer's output back through it, so the files
 * stay standard.
 */

export type XlsxCell = string | number | boolean | Date | null;

export interface XlsxSheet {
  readonly name: string;
  /** Row 1 is the header row (bold, frozen). */
  readonly rows: readonly (readonly XlsxCell[])[];
  /** Number format of each column's data cells (null: General). */
  readonly columnFormats?: readonly (string | null)[];
  /** Number format of the cells after the first column, per data row (row index 0 is the first row below the header); wins over columnFormats. */
  readonly rowFormats?: readonly (string | null)[];
  /** Column widths in characters. */
  readonly widths: readonly number[];
  readonly autoFilter?: boolean;
}

export interface XlsxWorkbook {
  readonly sheets: readonly XlsxSheet[];
  readonly creator: string;
  readonly created: Date;
  /** Compression of the parts; default: Node's zlib when present, else CompressionStream (report/deflate.ts). */
  readonly deflate?: RawDeflate;
}

/** Excel's limits: longer text or more rows make Excel "repair" (truncate) the file. */
const MAX_CELL_TEXT = 32_767;
const MAX_ROWS = 1_048_576;

/** Number formats Excel knows by id; others get ids from 164 on. */
const BUILTIN_FORMATS: Readonly<Record<string, number>> = { '0': 1, '0.00': 2, '0%': 9, '0.00%': 10 };

// Characters XML 1.0 forbids; Excel refuses a file that contains them.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function escapeXml(text: string): string {
  // \r is escaped too: XML parsers turn a literal one into \n.
  return text.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;');
}

function columnName(index: number): string {
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
class Styles {
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

class SharedStrings {
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

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">';
const SHEET_VIEWS =
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
  '<sheetFormatPr defaultRowHeight="15"/>';
const SHEET_TAIL = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** Cell tags after `<c` (and its reference, when written): type and style, up to the value's `<v>`. */
interface CellTags {
  readonly number: string;
  readonly text: string;
  readonly boolean: string;
}

function cellTags(style: number): CellTags {
  const s = style ? ` s="${style}"` : '';
  return { number: `${s}><v>`, text: ` t="s"${s}><v>`, boolean: ` t="b"${s}><v>` };
}

/**
 * One worksheet part as bytes (all ASCII: text lives in the shared strings). A cell's `r`
 * reference is written only on a row's first cell and after an empty cell: SpreadsheetML
 * places an unreferenced cell right after the previous one, and dropping the references takes a
 * quarter off the Trades sheet, which deflate then does not have to compress.
 */
function sheetXml(sheet: XlsxSheet, styles: Styles, strings: SharedStrings): Uint8Array {
  const rows = sheet.rows;
  const columns = rows.reduce((n, row) => Math.max(n, row.length), 0);
  const names = Array.from({ length: columns }, (_, c) => columnName(c));
  if (rows.length > MAX_ROWS) throw new Error(`invalid sheet ${sheet.name}: ${rows.length} rows (Excel allows ${MAX_ROWS})`);
  const tagsByFormat = new Map<string | null, CellTags>();
  const tagsOf = (format: string | null): CellTags => {
    let tags = tagsByFormat.get(format);
    if (tags === undefined) {
      tags = cellTags(styles.styleOf(format));
      tagsByFormat.set(format, tags);
    }
    return tags;
  };
  const headerTags = cellTags(1);
  const columnTags = Array.from({ length: columns }, (_, c) => tagsOf(sheet.columnFormats?.[c] ?? null));
  const rowTags: CellTags[] = new Array(columns);
  // About 23 bytes per Trades cell: one allocation up front instead of doublings and copies.
  const out = new AsciiSink(64 * 1024 + rows.length * columns * 24);
  const last = columns > 0 && rows.length > 0 ? `${names[columns - 1]}${rows.length}` : 'A1';
  out.ascii(SHEET_HEAD);
  out.ascii(`<dimension ref="A1:${last}"/>`);
  out.ascii(SHEET_VIEWS);
  if (sheet.widths.length) out.ascii(`<cols>${sheet.widths.map((w, c) => `<col min="${c + 1}" max="${c + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`);
  out.ascii('<sheetData>');
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const ref = r + 1;
    let tags = columnTags;
    if (r === 0) {
      tags = rowTags.fill(headerTags);
    } else {
      const rowFormat = sheet.rowFormats?.[r - 1];
      if (rowFormat) {
        for (let c = 0; c < columns; c++) rowTags[c] = c > 0 ? tagsOf(rowFormat) : columnTags[c];
        tags = rowTags;
      }
    }
    out.ascii('<row r="');
    out.uint(ref);
    out.ascii('">');
    // The column an unreferenced cell would land in; the first cell of a row always gets its
    // reference (exceljs cannot place an unreferenced first cell).
    let next = -1;
    for (let c = 0; c < row.length; c++) {
      const value = row[c];
      let date = false;
      let tag: string;
      let number: number;
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) continue;
        number = value;
        tag = tags[c].number;
      } else if (typeof value === 'string') {
        if (value.length > MAX_CELL_TEXT) throw new Error(`invalid cell ${sheet.name}!${names[c]}${ref}: ${value.length} characters (Excel allows ${MAX_CELL_TEXT})`);
        number = strings.id(value);
        tag = tags[c].text;
      } else if (typeof value === 'boolean') {
        number = value ? 1 : 0;
        tag = tags[c].boolean;
      } else if (value instanceof Date && Number.isFinite(value.getTime())) {
        number = value.getTime();
        date = true;
        tag = tags[c].number;
      } else {
        continue;
      }
      if (c === next) {
        out.ascii('<c');
      } else {
        out.ascii('<c r="');
        out.ascii(names[c]);
        out.uint(ref);
        out.ascii('"');
      }
      next = c + 1;
      out.ascii(tag);
      if (date) out.excelDate(number);
      else out.number(number);
      out.ascii('</v></c>');
    }
    out.ascii('</row>');
  }
  out.ascii('</sheetData>');
  if (sheet.autoFilter && columns > 0) out.ascii(`<autoFilter ref="A1:${names[columns - 1]}${Math.max(1, rows.length)}"/>`);
  out.ascii(SHEET_TAIL);
  return out.bytes();
}

function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

const SHEET_NAME = /^[^\\/?*[\]:]{1,31}$/;

/** The .xlsx bytes of a workbook. */
export async function writeXlsx(workbook: XlsxWorkbook): Promise<Uint8Array> {
  if (workbook.sheets.length === 0) throw new Error('invalid workbook: no sheet');
  const seen = new Set<string>();
  for (const sheet of workbook.sheets) {
    if (!SHEET_NAME.test(sheet.name) || sheet.name.startsWith("'")) throw new Error(`invalid sheet name: ${JSON.stringify(sheet.name)}`);
    if (seen.has(sheet.name.toLowerCase())) throw new Error(`invalid sheet name: ${sheet.name} (duplicate)`);
    seen.add(sheet.name.toLowerCase());
  }
  const styles = new Styles();
  const strings = new SharedStrings();
  const files: Record<string, string | Uint8Array> = {};
  const sheetXmls = workbook.sheets.map((sheet) => sheetXml(sheet, styles, strings));
  const created = workbook.created.toISOString().replace(/\.\d{3}Z$/, 'Z');

  const sheetOverrides = workbook.sheets
    .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
    .join('');
  files['[Content_Types].xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheetOverrides +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>';
  files['_rels/.rels'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
      '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>' +
      '</Relationships>';
  files['docProps/core.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      `<dc:creator>${escapeXml(workbook.creator)}</dc:creator>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created>` +
      `<dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified>` +
      '</cp:coreProperties>';
  files['docProps/app.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>bt</Application></Properties>';
  const filters = workbook.sheets
    .map((sheet, i) => {
      if (!sheet.autoFilter) return '';
      const columns = sheet.rows.reduce((n, row) => Math.max(n, row.length), 0);
      if (columns === 0) return '';
      return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${escapeXml(quoteSheet(sheet.name))}!$A$1:$${columnName(columns - 1)}$${Math.max(1, sheet.rows.length)}</definedName>`;
    })
    .join('');
  files['xl/workbook.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      '<bookViews><workbookView activeTab="0"/></bookViews><sheets>' +
      workbook.sheets.map((sheet, i) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets>' +
      (filters ? `<definedNames>${filters}</definedNames>` : '') +
      '</workbook>';
  const n = workbook.sheets.length;
  files['xl/_rels/workbook.xml.rels'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      workbook.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId${n + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
      '</Relationships>';
  sheetXmls.forEach((xml, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = xml;
  });
  files['xl/styles.xml'] = styles.xml();
  files['xl/sharedStrings.xml'] = strings.xml();
  const encoder = new TextEncoder();
  const parts: ZipPart[] = Object.entries(files).map(([name, xml]) => ({ name, data: typeof xml === 'string' ? encoder.encode(xml) : xml }));
  return zipParts(parts, workbook.created, workbook.deflate);
}
