// The child of costs-instructions.bench.ts, run under valgrind: RUNS full runs with workbook of
// one strategy, with or without costs, after the same warm-up. Arguments: strategy, plain|costs, RUNS.
import { runBacktest } from '@bt/core';
import { benchRequest } from './bench-costs.js';
import { forexYearM5 } from './forex-year.js';

const [strategy, mode, runs] = process.argv.slice(2);
if (!strategy || (mode !== 'plain' && mode !== 'costs') || !(Number(runs) >= 0)) throw new Error(`usage: counted-runs STRATEGY plain|costs RUNS (got ${process.argv.slice(2).join(' ')})`);
const year = forexYearM5();
const request = benchRequest(strategy, mode === 'costs');
const WARM_UP = 3;
let trades = 0;
for (let i = 0; i < WARM_UP + Number(runs); i++) trades = (await runBacktest(year, request, { workbook: true, createdAt: 0 })).trades.length;
process.stdout.write(`${JSON.stringify({ trades })}\n`);
