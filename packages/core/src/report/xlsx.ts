import { defaultDeflater, type DeflatedPart, type Deflater } from './deflate.js';
import { sheetSize, sheetXml } from './sheet-xml.js';
import { columnName, escapeXml, SharedStrings, Styles } from './xlsx-parts.js';
import { fixedPart } from './fixed-parts.js';
import { zipParts, type ZipPart } from './zip.js';

/**
 * A small SpreadsheetML (Office Open XML) writer for the run workbook: values, number
 * formats, a bold frozen header row, column widths and an auto-filter. Nothing else.
 *
 * Why not exceljs for writing: exceljs builds an object per cell and per style, then serialises
 * them with pure-JS deflate; for a 10,000-trade workbook it takes seconds here (docs/report.md has
 * the measurement), while a whole run with its workbook must fit in 250 ms. This writer puts
 * the sheet XML straight into a byte buffer (report/sheet-xml.ts) and deflates natively
 * (report/deflate.ts). exceljs still reads every workbook (report/reader.ts), and the tests read
 * this writer's output back through it, so the files stay standard.
 */

export type XlsxCell = string | number | boolean | Date | null;

/** A column of a record-backed sheet: the cell of a record; a date column gives ms UTC. */
export interface XlsxColumn<T> {
  value(record: T): string | number | boolean | null;
  readonly date?: boolean;
  /**
   * Its numbers take a few values that repeat down the column (a run's costs): the writer keeps
   * each value's cell bytes and copies them (same bytes as writing the number).
   */
  readonly repeats?: boolean;
}

/** Rows given as records and column accessors: no row arrays, no Date objects (the Trades sheet). */
export interface XlsxRecords<T> {
  readonly items: readonly T[];
  readonly columns: readonly XlsxColumn<T>[];
}

export interface XlsxSheet {
  readonly name: string;
  /** Row 1: bold and frozen. */
  readonly headers: readonly string[];
  /** Data rows (from row 2), or `records`. */
  readonly rows?: readonly (readonly XlsxCell[])[];
  readonly records?: XlsxRecords<unknown>;
  /** Number format of each column's data cells (null: General). */
  readonly columnFormats?: readonly (string | null)[];
  /** Number format of the cells after the first column, per data row; wins over columnFormats. */
  readonly rowFormats?: readonly (string | null)[];
  /** Column widths in characters fit the widest cell (header + 3, cell + 2), within these bounds. */
  readonly minWidth: number;
  readonly maxWidth: number;
  readonly autoFilter?: boolean;
}

export interface XlsxWorkbook {
  readonly sheets: readonly XlsxSheet[];
  readonly creator: string;
  readonly created: Date;
  /** Compression of the parts; default: Node's zlib when present, else CompressionStream (report/deflate.ts). */
  readonly deflater?: Deflater;
}

function quoteSheet(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

const SHEET_NAME = /^[^\\/?*[\]:]{1,31}$/;

function contentTypesXml(sheets: number): string {
  const sheetOverrides = Array.from(
    { length: sheets },
    (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('');
  return (
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
    '</Types>'
  );
}

const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>' +
  '</Relationships>';

const APP_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>bt</Application></Properties>';

function workbookRelsXml(sheets: number): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    Array.from(
      { length: sheets },
      (_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
    ).join('') +
    `<Relationship Id="rId${sheets + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId${sheets + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
    '</Relationships>'
  );
}

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
  const files: Record<string, string | { data: Uint8Array } | { deflated: DeflatedPart | Promise<DeflatedPart> }> = {};
  const deflater = workbook.deflater ?? defaultDeflater();
  const sheetXmls = workbook.sheets.map((sheet) => sheetXml(sheet, styles, strings, deflater));
  const created = workbook.created.toISOString().replace(/\.\d{3}Z$/, 'Z');

  const n = workbook.sheets.length;
  files['[Content_Types].xml'] = { deflated: fixedPart(deflater, `types ${n}`, () => contentTypesXml(n)) };
  files['_rels/.rels'] = { deflated: fixedPart(deflater, 'rels', () => ROOT_RELS) };
  files['docProps/core.xml'] =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
      `<dc:creator>${escapeXml(workbook.creator)}</dc:creator>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created>` +
      `<dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified>` +
      '</cp:coreProperties>';
  files['docProps/app.xml'] = { deflated: fixedPart(deflater, 'app', () => APP_XML) };
  const filters = workbook.sheets
    .map((sheet, i) => {
      if (!sheet.autoFilter) return '';
      const { columns, count } = sheetSize(sheet);
      if (columns === 0) return '';
      return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${escapeXml(quoteSheet(sheet.name))}!$A$1:$${columnName(columns - 1)}$${1 + count}</definedName>`;
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
  files['xl/_rels/workbook.xml.rels'] = { deflated: fixedPart(deflater, `workbook rels ${n}`, () => workbookRelsXml(n)) };
  sheetXmls.forEach((xml, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = xml;
  });
  const stylesXml = styles.xml();
  files['xl/styles.xml'] = { deflated: fixedPart(deflater, `styles ${stylesXml}`, () => stylesXml) };
  files['xl/sharedStrings.xml'] = strings.xml();
  const encoder = new TextEncoder();
  const parts: ZipPart[] = Object.entries(files).map(([name, xml]) => (typeof xml === 'string' ? { name, data: encoder.encode(xml) } : { name, ...xml }));
  return zipParts(parts, workbook.created, deflater);
}
