// The upload progress of `bt admin import-output`: a bar redrawn in place on a terminal, lines at
// each quarter elsewhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uploadProgress } from '../src/admin/progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream };
}

test('on a terminal: one bar redrawn in place, the last one complete, then a new line', () => {
  const { writes, stream: out } = stream(true);
  const env = { NO_COLOR: process.env.NO_COLOR, TERM: process.env.TERM };
  process.env.NO_COLOR = '1';
  process.env.TERM = 'xterm';
  try {
    const progress = uploadProgress('uploading x.zip', out);
    progress.update(0, 4 * 1024 * 1024);
    progress.update(1024 * 1024, 4 * 1024 * 1024);
    progress.update(4 * 1024 * 1024, 4 * 1024 * 1024);
    progress.update(4 * 1024 * 1024, 4 * 1024 * 1024);
  } finally {
    Object.assign(process.env, env);
    if (env.NO_COLOR === undefined) delete process.env.NO_COLOR;
  }
  assert.ok(writes[0].startsWith('\ruploading x.zip ░'), writes[0]);
  assert.match(writes[0], /  0% 0\.0\/4\.0 MB\x1b\[K$/);
  const last = writes.filter((w) => w.startsWith('\r')).at(-1)!;
  assert.match(last, /^\ruploading x\.zip █{30} 100% 4\.0\/4\.0 MB\x1b\[K$/);
  assert.equal(writes.at(-1), '\n');
  assert.equal(writes.filter((w) => w === '\n').length, 1);
});

test('elsewhere: a line when it starts and at each quarter it passes', () => {
  const { writes, stream: out } = stream(false);
  const progress = uploadProgress('uploading x.zip', out);
  for (let sent = 0; sent <= 100; sent += 10) progress.update(sent, 100);
  assert.deepEqual(writes, [
    'uploading x.zip 0% (0.0/0.0 MB)\n',
    'uploading x.zip 25% (0.0/0.0 MB)\n',
    'uploading x.zip 50% (0.0/0.0 MB)\n',
    'uploading x.zip 75% (0.0/0.0 MB)\n',
    'uploading x.zip 100% (0.0/0.0 MB)\n',
  ]);
});
