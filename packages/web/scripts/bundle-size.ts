/**
 * `npm run bench -w @bt/web`: builds the app (3 times, for a median build time), then measures the
 * JavaScript a first visit to each public page downloads before it can render: the entry chunk,
 * the page's chunk and every chunk they import statically, gzipped. Writes the
 * `<!-- bench:web -->` section of docs/PERFORMANCE.md. Target: at most 250 KB per page.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(webDir, '..', '..');
const distDir = join(webDir, 'dist');
const TARGET_KB = 250;
const BUILD_RUNS = Number(process.env.BT_BENCH_RUNS ?? 3);

/** Public pages (docs/product.md §3.2) and the module each route renders. */
const PUBLIC_PAGES: [route: string, module: string][] = [
  ['/ and /home', 'src/pages/home/HomePage.tsx'],
  ['/backtest', 'src/pages/backtest/BacktestPage.tsx'],
  ['/login', 'src/pages/auth/LoginPage.tsx'],
  ['/forgot-password', 'src/pages/auth/ForgotPasswordPage.tsx'],
  ['/reset-password/{token}', 'src/pages/auth/ResetPasswordPage.tsx'],
  ['/legal/*', 'src/pages/legal/LegalPage.tsx'],
  ['/support', 'src/pages/support/SupportPage.tsx'],
  ['/a-savoir', 'src/pages/reference/ASavoirPage.tsx'],
  ['/a-savoir/strategies', 'src/pages/reference/StrategyDocsPage.tsx'],
  ['/pricing', 'src/pages/pricing/PricingPage.tsx'],
  ['/csv-shop', 'src/pages/csv-shop/CsvShopPage.tsx'],
  ['/success', 'src/pages/success/SuccessPage.tsx'],
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  css?: string[];
}

function build(): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(join(repoDir, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], { cwd: webDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The chunk files loaded before a module runs: itself and its static imports, recursively. */
function staticClosure(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle-size: ${key} is not in the Vite manifest (was it renamed?)`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();
function sizes(file: string): { raw: number; gzip: number } {
  let entry = gzipCache.get(file);
  if (!entry) {
    const bytes = readFileSync(join(distDir, file));
    entry = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    gzipCache.set(file, entry);
  }
  return entry;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);


const buildTimes: number[] = [];
for (let i = 0; i < BUILD_RUNS; i++) buildTimes.push(build());

const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('bundle-size: no entry chunk in the Vite manifest');
const entry = staticClosure(manifest, entryKey);

const rows = PUBLIC_PAGES.map(([route, module]) => {
  const files = staticClosure(manifest, module, new Set(entry));
  const total = [...files].reduce((sum, file) => ({ raw: sum.raw + sizes(file).raw, gzip: sum.gzip + sizes(file).gzip }), { raw: 0, gzip: 0 });
  return { route, files: files.size, ...total };
});
const entryGzip = [...entry].reduce((sum, file) => sum + sizes(file).gzip, 0);
const allJs = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
const largest = [...new Set(allJs.map((c) => c.file))].map((file) => ({ file, ...sizes(file) })).sort((a, b) => b.gzip - a.gzip).slice(0, 5);
const worst = rows.reduce((a, b) => (b.gzip > a.gzip ? b : a));
const ok = worst.gzip <= TARGET_KB * 1024;

const markdown = `
## Web app: initial JavaScript of the public pages

Measured by \`npm run bench -w @bt/web\` (packages/web/scripts/bundle-size.ts) on ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
"Initial JavaScript" of a page = the entry chunk + the page's chunk + every chunk they import statically (what the browser must fetch before the page renders), gzip level 9. Code loaded later on demand (the statistics modal, the Plot charts) is not counted; it is listed below.

Target: at most ${TARGET_KB} KB gzipped per page — **${ok ? 'met' : 'NOT met'}** (largest: ${worst.route}, ${kb(worst.gzip)} KB).

| page | chunks | raw KB | gzip KB |
|---|---:|---:|---:|
${rows.map((r) => `| ${r.route} | ${r.files} | ${kb(r.raw)} | ${kb(r.gzip)} |`).join('\n')}

Shared entry (React, router, shell, session, API client): ${kb(entryGzip)} KB gzipped.

Largest chunks (gzip KB): ${largest.map((c) => `\`${c.file.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '.js')}\` ${kb(c.gzip)}`).join(', ')}.

Production build (\`vite build\`): median ${(median(buildTimes) / 1000).toFixed(2)} s over ${buildTimes.length} runs (${buildTimes.map((t) => (t / 1000).toFixed(2)).join(', ')} s).
`;

const path = writeSection('web', markdown);
console.log(markdown);
console.log(`bt web bench: wrote ${path}`);
if (!ok) process.exitCode = 1;
