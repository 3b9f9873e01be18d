/**
 * How a test starts one of the server's entry points as a process of its own: under tsx from the
 * sources (`tsx --test test/X.test.ts`), or, in the suite's compiled copy (scripts/compiled-suite.mjs),
 * as the copy's JavaScript on plain Node, which spares each process seconds of tsx's loader.
 * The arguments go after `process.execPath`; the process's folder is the server package's.
 */
export function entryArgs(entry: 'main' | 'worker'): string[] {
  return scriptArgs(`src/${entry}`);
}

/** The same for any module of the package, named without its extension (`test/support/x`). */
export function scriptArgs(module: string): string[] {
  return import.meta.url.endsWith('.ts')
    ? ['--import', 'tsx', '--conditions=@bt/source', `${module}.ts`]
    : ['--conditions=@bt/source', '--enable-source-maps', `${module}.js`];
}
