/**
 * Finds CommonJS files that `require()` a package entry published under the `module-sync` export
 * condition. Deno 2.9 loads such an entry as ES modules inside the synchronous require, and on a
 * first start (an empty DENO_DIR) that load can hang the process for good before it prints a line
 * (docs/server.md, "Deno"). The server's dependency tree must hold no such require.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackageJson {
  name?: string;
  type?: string;
  exports?: unknown;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

function mentionsModuleSync(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(mentionsModuleSync);
  return 'module-sync' in value || Object.values(value).some(mentionsModuleSync);
}

/** The export subpaths ('.', './x', './_/*') of a package that offer a `module-sync` target. */
export function moduleSyncSubpaths(pkg: PackageJson): string[] {
  const exports = pkg.exports;
  if (!exports || typeof exports !== 'object' || Array.isArray(exports)) return mentionsModuleSync(exports) ? ['.'] : [];
  const keyed = Object.keys(exports).some((key) => key.startsWith('.'));
  const entries: [string, unknown][] = keyed ? Object.entries(exports) : [['.', exports]];
  return entries.filter(([, target]) => mentionsModuleSync(target)).map(([subpath]) => subpath);
}

function subpathMatches(pattern: string, subpath: string): boolean {
  return pattern.endsWith('*') ? subpath.startsWith(pattern.slice(0, -1)) : pattern === subpath;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** CommonJS sources of one package: `.cjs` always, `.js` unless the package is `"type": "module"`. */
function* commonJsFiles(dir: string, esmPackage: boolean): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* commonJsFiles(path, esmPackage);
    else if (entry.name.endsWith('.cjs') || (entry.name.endsWith('.js') && !esmPackage)) yield path;
  }
}

/** `file: require('name/sub')` for every such require found in the given package folders. */
export function findModuleSyncRequires(packageDirs: readonly string[]): string[] {
  const packages = packageDirs.map((dir) => ({ dir, pkg: readPackage(dir) }));
  const targets = new Map<string, string[]>();
  for (const { pkg } of packages) {
    const subpaths = moduleSyncSubpaths(pkg);
    if (pkg.name && subpaths.length) targets.set(pkg.name, subpaths);
  }
  if (!targets.size) return [];
  const patterns = [...targets].map(([name, subpaths]) => ({
    subpaths,
    regex: new RegExp(`require\\(\\s*['"]${escapeRegExp(name)}(/[^'"]*)?['"]\\s*\\)`, 'g'),
  }));
  const found: string[] = [];
  for (const { dir, pkg } of packages) {
    for (const file of commonJsFiles(dir, pkg.type === 'module')) {
      const text = readFileSync(file, 'utf8');
      for (const { subpaths, regex } of patterns) {
        for (const match of text.matchAll(regex)) {
          const subpath = `.${match[1] ?? ''}`;
          if (subpaths.some((pattern) => subpathMatches(pattern, subpath))) found.push(`${file}: ${match[0]}`);
        }
      }
    }
  }
  return found;
}
