/**
 * How a test starts one of the server's entry points as a process of its own: under tsx from the
 * sources (`tsx --test test/X.test.ts`), or, in the suite's compiled copy (scripts/compiled-suite.mjs),
 * as the copy's JavaScript on plain Node, which spares each process seconds of tsx's loader.
 * The arguments go after `process.execPath`; the process's folder is the server package's.
 */
export function entryArgs(entry: 'main' | 'worker'): string[] {
  return scriptArgs(`src/${entry}`);
}

/**
 * The same for any module, named without its extension: relative to the process's folder
 * (`test/support/x`) or absolute (the CLI's tests, test/helpers.ts). tsx by its own address: worker
 * threads take the same flags and may run from another folder.
 */
export function scriptArgs(module: string): string[] {
  return import.meta.url.endsWith('.ts')
    ? ['--import', import.meta.resolve('tsx'), '--conditions=@bt/source', `${module}.ts`]
    : ['--conditions=@bt/source', '--enable-source-maps', `${module}.js`];
}
