// One entry point for every container: the bytes say what they are.
import { readCandlesCsv, toBytes, type CandleFile } from './csv-read.js';
import { isArrowIpc, readCandlesIpc } from './ipc.js';
import { readCandlesJson } from './json.js';
import type { ReadCandlesOptions } from './options.js';
import { readCandlesXlsx } from './xlsx.js';

export type CandleContainer = 'csv' | 'xlsx' | 'json' | 'arrow';

/** What a file is, from its first bytes: a zip (xlsx), Arrow IPC, a JSON array, or else CSV text. */
export function detectCandleContainer(bytes: Uint8Array): CandleContainer {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  if (isArrowIpc(bytes)) return 'arrow';
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
  return bytes[i] === 0x5b ? 'json' : 'csv';
}

/** Reads candles from CSV, XLSX, freqtrade JSON or Arrow IPC bytes (or CSV/JSON text), validated. */
export async function readCandles(input: string | Uint8Array | ArrayBuffer, options: ReadCandlesOptions = {}): Promise<CandleFile> {
  const bytes = toBytes(input);
  switch (detectCandleContainer(bytes)) {
    case 'xlsx':
      return readCandlesXlsx(bytes, options);
    case 'arrow':
      return readCandlesIpc(bytes, options);
    case 'json':
      return readCandlesJson(bytes, options);
    default:
      return readCandlesCsv(bytes, options);
  }
}
