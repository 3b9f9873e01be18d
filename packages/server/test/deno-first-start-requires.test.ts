/**
 * The server's first start under Deno: no CommonJS dependency may require a `module-sync` entry,
 * which hung `deno run` with an empty DENO_DIR about one start in three (docs/server.md, "Deno").
 * The smoke suite (smoke/deno.test.ts) starts Deno on an empty DENO_DIR too, but a hang there is
 * a matter of chance; this check is not.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { findModuleSyncRequires, moduleSyncSubpaths } from './support/module-sync-requires.js';

// npm's view of the installed tree is the original checkout's: in the suite's compiled copy
// (scripts/compiled-tree.mjs) node_modules is a link to the checkout's.
const root = dirname(realpathSync(join(fileURLToPath(import.meta.url), '..', '..', '..', '..', 'node_modules')));

/** Every installed package the server needs at run time (npm's own view, dev dependencies left out). */
function serverRuntimePackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable', '-w', '@bt/server'], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\n').filter((line) => line.includes('node_modules')))];
}

describe('Deno first start: no require() of a module-sync entry', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'bt-module-sync-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  function writePackage(name: string, packageJson: object, files: Record<string, string>): string {
    const dir = join(scratch, 'node_modules', name);
    for (const [file, text] of Object.entries({ 'package.json': JSON.stringify({ name, ...packageJson }), ...files })) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  }

  it('reads the module-sync subpaths of a package, conditions nested or in fallback arrays', () => {
    assert.deepEqual(moduleSyncSubpaths({ exports: { '.': [{ 'module-sync': './a.mjs', default: './a.js' }, './a.js'], './package.json': './package.json' } }), ['.']);
    assert.deepEqual(moduleSyncSubpaths({ exports: { node: { 'module-sync': './a.mjs' }, default: './a.js' } }), ['.']);
    assert.deepEqual(moduleSyncSubpaths({ exports: { './_/*': { 'module-sync': './esm/*.js' }, './cjs/*': './cjs/*' } }), ['./_/*']);
    assert.deepEqual(moduleSyncSubpaths({ exports: './index.js' }), []);
    assert.deepEqual(moduleSyncSubpaths({}), []);
  });

  it('finds a CommonJS require of such an entry, and only that', () => {
    const syncEsm = writePackage('sync-esm', { exports: { '.': { 'module-sync': './require.mjs', default: './index.js' }, './plain': './plain.js' } }, {
      'require.mjs': "import f from './index.js'; export default f;",
      'index.js': 'module.exports = 1;',
      'plain.js': 'module.exports = 2;',
    });
    const user = writePackage('cjs-user', {}, {
      'index.js': "const a = require('sync-esm');\nconst b = require('sync-esm/plain');\nconst c = require( \"sync-esm\" );",
      // An ES module package's .js files are ES modules: their imports do not go through require.
      'lib/other.cjs': "module.exports = require('sync-esm-not-this-one');",
    });
    const esmUser = writePackage('esm-user', { type: 'module' }, { 'index.js': "import a from 'sync-esm'; export const b = require('sync-esm');" });
    const found = findModuleSyncRequires([syncEsm, user, esmUser]);
    assert.deepEqual(found, [`${join(user, 'index.js')}: require('sync-esm')`, `${join(user, 'index.js')}: require( "sync-esm" )`]);
  });

  it("the server's run-time dependencies hold none (get-intrinsic, is-async-function and is-generator-function pinned in package.json)", () => {
    const packages = serverRuntimePackages();
    assert.ok(packages.some((dir) => dir.endsWith(join('node_modules', 'koa'))), 'npm ls lists the server dependencies');
    assert.deepEqual(findModuleSyncRequires(packages), []);
  });
});
