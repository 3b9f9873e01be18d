/**
 * `npm run bench:monte-carlo -w @bt/web` (also run by the package's `npm run bench`): the Monte
 * Carlo panel's bootstrap on one module worker against two, in Debian's Chromium, for R sequences
 * from 50 to 6,400 trades (10,000 runs: 0.5 to 64 million draws), to check the draws per worker
 * from which the panel splits a request (PANEL_DRAWS_PER_WORKER, src/features/montecarlo/job.ts).
 * The panel's own job.ts and worker, bundled by esbuild (as Vite does), served on 127.0.0.1.
 * Writes the `web-montecarlo` section of docs/PERFORMANCE.md.
 */
import { build } from 'esbuild';
import { createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/browser.js';
import { PANEL_DRAWS_PER_WORKER, PANEL_RUNS } from '../src/features/montecarlo/job.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const LENGTHS = process.env.BENCH_LENGTHS ? process.env.BENCH_LENGTHS.split(',').map(Number) : [50, 200, 800, 1_000, 1_200, 1_400, 1_600, 3_200, 6_400];
const PAIRS = Number(process.env.BENCH_PAIRS ?? 7);

const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bt-mc-workers-'));
  const server = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : (req.url ?? '').slice(1);
    const file = join(dir, name);
    if (!/^[a-z]+\.(html|js)$/.test(name) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': name.endsWith('.html') ? 'text/html' : 'text/javascript' });
    createReadStream(file).pipe(res);
  });
  try {
    await build({
      entryPoints: { page: join(webDir, 'scripts', 'monte-carlo-bench-page.ts'), worker: join(webDir, 'src', 'features', 'montecarlo', 'monte-carlo.worker.ts') },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      conditions: ['@bt/source'],
      outdir: dir,
      logLevel: 'error',
    });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="./page.js"></script>');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const loadStart = loadavg()[0];
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForFunction(() => typeof (globalThis as { measure?: unknown }).measure === 'function');
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const version = browser.version();
      const measure = (n: number, count: number, cold: boolean) =>
        page.evaluate(([n, count, cold]) => (globalThis as unknown as { measure(n: number, c: number, cold: boolean): Promise<number> }).measure(n, count, cold), [n, count, cold] as const);
      const rows: string[] = [];
      for (const n of LENGTHS) {
        const times: Record<string, number[]> = { cold1: [], cold2: [], warm1: [], warm2: [] };
        // Pairs in alternating order, so that one worker and two see about the same load.
        for (let p = 0; p < PAIRS; p++) {
          for (const cold of [true, false]) {
            const order = p & 1 ? [2, 1] : [1, 2];
            for (const count of order) times[`${cold ? 'cold' : 'warm'}${count}`].push(await measure(n, count, cold));
          }
        }
        const [c1, c2, w1, w2] = [median(times.cold1), median(times.cold2), median(times.warm1), median(times.warm2)];
        const draws = (PANEL_RUNS * n) / 1e6;
        rows.push(`| ${n.toLocaleString('en-US')} | ${fmt(draws)} M | ${fmt(c1)} | ${fmt(c2)} | ${fmt(c1 / c2, 2)} | ${fmt(w1)} | ${fmt(w2)} | ${fmt(w1 / w2, 2)} |`);
        console.log(rows[rows.length - 1]);
      }
      const body = [
        '## Monte Carlo in the browser: one module worker or two',
        '',
        '`npm run bench:monte-carlo -w @bt/web` (packages/web/scripts/monte-carlo-workers.ts) rewrites this section.',
        `Machine: ${cpus()[0]?.model.trim() ?? process.arch}, ${cpus().length} cores shared with other work (1-minute load average ${fmt(loadStart)} at the start, ${fmt(loadavg()[0])} at the end); Chromium ${version} (navigator.hardwareConcurrency ${cores}); ${new Date().toISOString().slice(0, 10)}.`,
        `The panel's own split and merge (src/features/montecarlo/job.ts) and worker, bundled by esbuild, on a bootstrap of ${PANEL_RUNS.toLocaleString('en-US')} runs of an R sequence of n trades; time from the request to the merged result, medians of ${PAIRS} pairs (one worker and two, the order alternating).`,
        '"Cold": the workers start for the request (the panel\'s first one); "warm": they answered a request of the same length before (the panel keeps its workers).',
        '',
        '| trades | draws | cold, 1 worker ms | cold, 2 workers ms | cold speed-up | warm, 1 worker ms | warm, 2 workers ms | warm speed-up |',
        '|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...rows,
        '',
        `The panel gives a worker ${(PANEL_DRAWS_PER_WORKER / 1e6).toLocaleString('en-US')} million draws or more (PANEL_DRAWS_PER_WORKER): a second worker from ${(2 * PANEL_DRAWS_PER_WORKER / PANEL_RUNS).toLocaleString('en-US')} trades, within the cores the browser reports (at most 4).`,
      ].join('\n');
      writeSection('web-montecarlo', body);
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
