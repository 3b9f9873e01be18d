// The conventions every command shares: version, help with examples, exit codes, usage errors,
// colour only on a terminal and never with NO_COLOR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, cliDir, EURUSD_H1, mapLimit } from './helpers.js';

const COMMANDS = ['backtest', 'batch', 'validate', 'enrich', 'convert', 'zones', 'strategies', 'params', 'symbols', 'report', 'regress', 'tui'];
const version = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')).version as string;

test('bt --version and -V print the package version and exit 0', async () => {
  for (const flag of ['--version', '-V']) {
    const r = await bt([flag]);
    assert.deepEqual(r, { code: 0, stdout: `${version}\n`, stderr: '' });
  }
});

test('bt --help lists every command with the exit codes; bt help CMD is the command help', async () => {
  const r = await bt(['--help']);
  assert.equal(r.code, 0);
  for (const name of COMMANDS) assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'), name);
  assert.match(r.stdout, /Exit codes: 0 success, 1 failed run or bad data, 2 usage error\./);
  const help = await bt(['help', 'zones']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: bt zones \[options\]/);
});

test('every command has --help with examples', async () => {
  const runs = await Promise.all(COMMANDS.map((name) => bt([name, '--help'])));
  runs.forEach((r, i) => {
    assert.equal(r.code, 0, COMMANDS[i]);
    assert.match(r.stdout, new RegExp(`^Usage: bt ${COMMANDS[i]} `), COMMANDS[i]);
    assert.match(r.stdout, /\nExamples:\n  \$ bt /, `${COMMANDS[i]} has examples`);
  });
});

test('usage errors exit 2 with bt: <message> on stderr and nothing on stdout', async () => {
  const cases: [string[], string][] = [
    [['nope'], "bt: unknown command 'nope'\n(run 'bt help' or add --help for usage)\n"],
    [['strategies', '--nope'], "bt: unknown option '--nope'\n(run 'bt help' or add --help for usage)\n"],
    [['backtest', '--strategy', 'fvg_pullback_multi'], "bt: required option '--data <file>' not specified\n(run 'bt help' or add --help for usage)\n"],
    [['params'], "bt: missing required argument 'key'\n(run 'bt help' or add --help for usage)\n"],
    [['backtest', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi', '--sl-mode', 'both'], "bt: option '--sl-mode <mode>' argument 'both' is invalid. Allowed choices are external, internal.\n(run 'bt help' or add --help for usage)\n"],
  ];
  const runs = await mapLimit(cases, 4, ([args]) => bt(args));
  cases.forEach(([args, stderr], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr }, args.join(' ')));
});

test('bt without a command prints the help on stderr and exits 2', async () => {
  const r = await bt([]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^Usage: bt \[options\] \[command\]/);
});

test('colour: none when stdout is not a terminal, FORCE_COLOR forces it, NO_COLOR always wins', async () => {
  const ansi = /\x1b\[/;
  const plain = await bt(['strategies']);
  assert.doesNotMatch(plain.stdout, ansi);
  const forced = await bt(['strategies'], { env: { FORCE_COLOR: '1' } });
  assert.match(forced.stdout, ansi);
  const noColor = await bt(['strategies'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
  assert.doesNotMatch(noColor.stdout, ansi);
  assert.equal(noColor.stdout, plain.stdout);
});

test('a closed pipe (bt ... | head) ends quietly', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(`"${process.execPath}" "${join(cliDir, 'dist/bin.js')}" symbols | head -n 1`, { shell: true });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  await new Promise((resolve) => child.on('close', resolve));
  assert.match(out, /^symbol +label +class +pip size\n$/);
  assert.equal(err, '');
});

test('an output that cannot be written (a full disk) is one sentence and exit 1, never a stack trace', { skip: process.platform !== 'linux' }, async () => {
  const { openSync, closeSync } = await import('node:fs');
  const { spawnSync } = await import('node:child_process');
  const full = openSync('/dev/full', 'w');
  try {
    for (const args of [['--version'], ['strategies'], ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--json']]) {
      const run = spawnSync(process.execPath, [join(cliDir, 'dist/bin.js'), ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      assert.deepEqual([run.status, run.stderr], [1, 'bt: cannot write to standard output: ENOSPC (no space left on device)\n'], args.join(' '));
    }
  } finally {
    closeSync(full);
  }
});
