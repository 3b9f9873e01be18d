// A copy of the repository in which the TypeScript of the packages a suite loads is already
// JavaScript, so that the suite's processes run on plain Node, without a loader thread
// (docs/development.md, "Suites on compiled JavaScript"). Every folder is a real folder of the copy;
// every file is a hard link to the original (the same bytes, nothing copied), and each
// `name.ts` of the compiled packages gets a `name.js` beside it, which is what the sources'
// `./name.js` imports find. `node_modules` and build outputs stay links to the originals; each
// compiled package has a `node_modules/@bt/*` of its own, pointing at the copy's packages, and the
// copy's package.json files have their `@bt/source` export condition name the `.js` files.
import { build } from 'esbuild';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Folders the copy links to instead of copying: what other steps build or fill while the suite runs. */
const LINKED = new Set(['node_modules', 'dist']);
/** The same at the root only (.gitignore's): data, scratch space and the suites' outputs. */
const LINKED_AT_ROOT = new Set(['.data', 'data', 'tmp', 'test-results']);
/** Folders at the root that suites write into for people to read after (screenshots): made in the original if missing, then linked. */
const OUTPUTS = ['test-results'];
/** Not part of the copy at all. */
const SKIPPED = new Set(['.git', '.test-build']);

/**
 * Builds the copy of `root` at `to` (removed first if it exists). `packages`: the folders under
 * packages/ whose `.ts` and `.tsx` files are compiled, a package (`server`) or a folder of one
 * (`web/e2e`: the browser tests without the app's sources, whose `Heatmap.tsx` and `heatmap.ts`
 * esbuild refuses to write side by side). Answers the number of files compiled.
 */
export async function buildCompiledTree(root, to, packages) {
  rmSync(to, { recursive: true, force: true });
  const compiled = [];
  const compiledRoots = packages.map((name) => join(root, 'packages', name));
  const isCompiled = (path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts') && compiledRoots.some((dir) => path.startsWith(dir + '/'));

  const copyFolder = (from, into) => {
    mkdirSync(into, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const source = join(from, entry.name);
      const target = join(into, entry.name);
      if (entry.isDirectory()) {
        if (LINKED.has(entry.name) || (from === root && LINKED_AT_ROOT.has(entry.name))) symlinkSync(source, target, 'dir');
        else copyFolder(source, target);
      } else if (entry.isSymbolicLink()) {
        symlinkSync(source, target);
      } else if (entry.isFile()) {
        if (entry.name === 'package.json' && dirname(from) === join(root, 'packages')) writeFileSync(target, sourceExportsAsJs(readFileSync(source, 'utf8')));
        else linkSync(source, target);
        if (isCompiled(source)) compiled.push(relative(root, source));
      }
    }
  };
  for (const name of OUTPUTS) mkdirSync(join(root, name), { recursive: true });
  copyFolder(root, to);
  // Each compiled package gets a node_modules folder of its own, found before the root's: its
  // @bt/* are the copy's packages (the root's node_modules, a link, holds the originals).
  const workspaces = readdirSync(join(root, 'packages'));
  for (const name of new Set(packages.map((folder) => folder.split('/')[0]))) {
    const modules = join(to, 'packages', name, 'node_modules');
    const original = join(root, 'packages', name, 'node_modules');
    rmSync(modules, { force: true });
    mkdirSync(join(modules, '@bt'), { recursive: true });
    if (existsSync(original)) for (const entry of readdirSync(original)) if (entry !== '@bt') symlinkSync(join(original, entry), join(modules, entry));
    for (const workspace of workspaces) symlinkSync(join('..', '..', '..', workspace), join(modules, '@bt', workspace), 'dir');
  }

  // One esbuild call for every file: TypeScript's syntax removed, one module per file (no bundle),
  // source maps inline so that stack traces name the .ts files and their lines.
  await build({
    absWorkingDir: root,
    entryPoints: compiled,
    outdir: to,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    logLevel: 'error',
  });
  return compiled.length;
}

/** The package's `@bt/source` export targets, `./src/x.ts`, as the compiled `./src/x.js`. */
function sourceExportsAsJs(text) {
  const manifest = JSON.parse(text);
  const rewrite = (node) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '@bt/source' && typeof value === 'string') node[key] = value.replace(/\.tsx?$/, '.js');
      else rewrite(value);
    }
  };
  rewrite(manifest.exports);
  return JSON.stringify(manifest, null, 2) + '\n';
}
