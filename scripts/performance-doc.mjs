// docs/PERFORMANCE.md is shared by every package's benchmarks: each bench script owns the part
// between its markers <!-- bench:NAME --> and <!-- /bench:NAME --> and rewrites only that.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PERFORMANCE_DOC = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'PERFORMANCE.md');

/** Replaces (or appends) section NAME of the performance document; returns the file's path. */
export function writeSection(name, body, path = PERFORMANCE_DOC) {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}`;
  let text = existsSync(path) ? readFileSync(path, 'utf8') : '# Performance\n\nWritten by `npm run bench`; each section belongs to one benchmark script.\n';
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start >= 0 && end > start) text = text.slice(0, start) + block + text.slice(end + close.length);
  else text = `${text.trimEnd()}\n\n${block}\n`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
