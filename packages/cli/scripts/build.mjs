// Builds the `bt` binary: one esbuild bundle of the CLI and of @bt/core's sources (resolved
// through the @bt/source condition, so core needs no separate build), split into chunks so each
// command loads only what it needs. apache-arrow and commander are bundled (they are on the
// backtest path: one file parses far faster than Arrow's ~160 modules); exceljs, ink, react and
// yaml stay in node_modules and are imported lazily by the commands that use them, as do Plot and
// linkedom (the optimisation heatmap).
import { build } from 'esbuild';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = join(here, '..');
const root = join(pkgDir, '../..');
const dist = join(pkgDir, 'dist');
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

// Left in node_modules and declared free of side effects, so a chunk that imports one of them
// without using it (core's report barrel re-exports the exceljs reader) does not load it.
const lazyExternals = {
  name: 'lazy-externals',
  setup(b) {
    b.onResolve({ filter: /^(exceljs|ink|react|react\/jsx-runtime|yaml|linkedom|@observablehq\/plot)$/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

rmSync(dist, { recursive: true, force: true });
const result = await build({
  // program.js: the same `main` bin.js runs, for callers that run many commands in one process
  // (the hostile-flag sweep, test/cli-hostile-flags.test.ts); the workers sit beside it as they
  // do beside bin.js.
  entryPoints: { bin: join(pkgDir, 'src/bin.ts'), program: join(pkgDir, 'src/program.ts'), 'batch-worker': join(pkgDir, 'src/batch/worker.ts'), 'optimize-worker': join(pkgDir, 'src/optimize/worker.ts'), 'monte-carlo-worker': join(pkgDir, 'src/montecarlo/worker.ts') },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@bt/source'],
  plugins: [lazyExternals],
  chunkNames: 'chunk-[hash]',
  jsx: 'automatic',
  define: { __BT_VERSION__: JSON.stringify(version) },
  // CommonJS inside the bundle (commander) calls require() for Node built-ins.
  banner: { js: "import { createRequire as __btRequire } from 'node:module'; const require = __btRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// The entry itself needs no require(): keep `bt --version` free of any import.
const banner = "import { createRequire as __btRequire } from 'node:module'; const require = __btRequire(import.meta.url);\n";
const entry = readFileSync(join(dist, 'bin.js'), 'utf8');
if (!/\brequire\(/.test(entry.replace(banner, ''))) writeFileSync(join(dist, 'bin.js'), entry.replace(banner, ''));
chmodSync(join(dist, 'bin.js'), 0o755);
if (process.env.BT_BUILD_META) writeFileSync(process.env.BT_BUILD_META, JSON.stringify(result.metafile));

// npm links a workspace's bin only when its file exists at install time; after a fresh `npm ci`
// dist/ is missing, so link it now for `npx bt` from the repository root.
if (existsSync(join(root, 'node_modules')) && !existsSync(join(root, 'node_modules/.bin/bt'))) {
  spawnSync('npm', ['rebuild', '@bt/cli', '--ignore-scripts'], { cwd: root, stdio: 'ignore' });
}
