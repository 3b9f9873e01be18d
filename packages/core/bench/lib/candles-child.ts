// One measurement in a fresh process (so peak memory is this operation's alone).
// Usage: candles-child.ts <task> <file>; prints one JSON line.
//   baseline      load the modules only
//   ingest        readCandlesFile(csv): streamed read, parse, full validation, Arrow table
//   ingest-bytes  the CSV already in memory: readCandlesCsv(bytes)
//   reload        readFileSync(arrow) + readCandlesIpc(bytes, { validate: false })
//   reload-valid  the same with the validation of every row
//   reload-bytes  the Arrow IPC bytes already in memory: readCandlesIpc(bytes, { validate: false })
//   touch         no parsing: allocate as many bytes as the file and write them once (the floor
//                 any reload pays for bringing that much fresh memory into the process)
//   *-warm        the same operation three times in one process; the last time is reported
import { readFileSync, statSync } from 'node:fs';
import { readCandlesCsv, readCandlesIpc, type Candles } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';

const [task, file] = process.argv.slice(2);
const warm = task.endsWith('-warm');
const op = task.replace(/-warm$/, '');

const preloaded = op === 'ingest-bytes' || op === 'reload-bytes' ? readFileSync(file) : undefined;

async function once(): Promise<{ ms: number; candles?: Candles }> {
  switch (op) {
    case 'baseline':
      return { ms: 0 };
    case 'touch': {
      const t0 = performance.now();
      new Uint8Array(statSync(file).size).fill(1);
      return { ms: performance.now() - t0 };
    }
    case 'ingest': {
      const t0 = performance.now();
      const { candles } = await readCandlesFile(file);
      return { ms: performance.now() - t0, candles };
    }
    case 'ingest-bytes': {
      const t0 = performance.now();
      const { candles } = readCandlesCsv(preloaded!);
      return { ms: performance.now() - t0, candles };
    }
    case 'reload-bytes': {
      const t0 = performance.now();
      const { candles } = readCandlesIpc(preloaded!, { validate: false });
      return { ms: performance.now() - t0, candles };
    }
    case 'reload':
    case 'reload-valid': {
      const t0 = performance.now();
      const { candles } = readCandlesIpc(readFileSync(file), { validate: op === 'reload-valid' });
      return { ms: performance.now() - t0, candles };
    }
    default:
      throw new Error(`invalid task: ${JSON.stringify(task)}`);
  }
}

let cpu = process.cpuUsage();
let result = await once();
for (let k = 0; warm && k < 2; k++) {
  cpu = process.cpuUsage();
  result = await once();
}
const used = process.cpuUsage(cpu);
const rows = result.candles?.length ?? 0;
// Touch the result so nothing is optimised away, and check the table really holds the rows.
if (result.candles && result.candles.table.numRows !== rows) throw new Error('table and views disagree');
console.log(JSON.stringify({ task, ms: result.ms, cpuMs: (used.user + used.system) / 1000, rows, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
