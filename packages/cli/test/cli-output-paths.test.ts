// Where bt writes, and what its worker threads read (src/paths.ts, docs/cli.md "What a path may
// be"): an output that is a file the command reads is refused before any work (it used to replace
// the candles with the results, exit 0); folders are made without Node's recursive mkdir, which
// never returned under /proc; a pipe given to a command whose workers each read the file is
// refused in one sentence instead of an "empty file" (or a wait for ever on a named pipe).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, mapLimit, tempDir } from './helpers.js';

const EXITS = ['--sl', '10,20', '--tp1', '20', '--no-progress', '--concurrency', '1'];

test('an output that is one of the files read is a usage error, and the file is left as it was', async () => {
  const tmp = tempDir();
  try {
    const data = join(tmp.dir, 'EURUSD_H1_2017-2018.csv');
    copyFileSync(EURUSD_H1, data);
    const original = readFileSync(data);
    symlinkSync(data, join(tmp.dir, 'link.xlsx'));
    linkSync(data, join(tmp.dir, 'hard.csv'));
    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry]\ndata: EURUSD_H1_2017-2018.csv\nsl: 10\ntp1: 20\n`);
    const cases: [string[], string][] = [
      [['optimize', '--data', data, '--strategy', 'englobante_entry', ...EXITS, '--csv', data], `invalid --csv: "${data}" is the input file`],
      [['walk-forward', '--data', data, '--strategy', 'englobante_entry', ...EXITS, '--in-sample', '60d', '--out-of-sample', '30d', '--csv', 'hard.csv'],
        `invalid --csv: "hard.csv" is the input file ${data} under another name (a link)`],
      [['batch', plan, '--no-progress', '--csv', 'EURUSD_H1_2017-2018.csv'], 'invalid --csv: "EURUSD_H1_2017-2018.csv" is the input file'],
      [['batch', plan, '--no-progress', '--csv', plan], `invalid --csv: "${plan}" is the input file`],
      [['convert', data, 'link.xlsx'], `invalid <out>: "link.xlsx" is the input file ${data} under another name (a link)`],
      [['enrich', data, '-o', data], `invalid --output: "${data}" is the input file`],
      [['enrich', 'hard.csv', '-o', data], `invalid --output: "${data}" is the input file hard.csv under another name (a link)`],
    ];
    const runs = await mapLimit(cases, 2, ([args]) => bt(args, { cwd: tmp.dir }));
    cases.forEach(([args, message], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr: `bt: ${message}\n` }, args.join(' ')));
    assert.deepEqual(readFileSync(data), original);
    // An output beside the input is written as before.
    const ok = await bt(['enrich', data, '-o', 'EURUSD_H1_enriched.csv'], { cwd: tmp.dir });
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    tmp.remove();
  }
});

test('an output of a long run that cannot be written is exit 1 before the run, not after it', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry]\ndata: ${EURUSD_H1}\nsl: 10\ntp1: 20\n`);
    const missing = join(tmp.dir, 'no-such-folder');
    const cases: [string[], string][] = [
      [['optimize', '--data', EURUSD_H1, '--strategy', 'englobante_entry', ...EXITS, '--csv', join(missing, 'o.csv')], `cannot write ${join(missing, 'o.csv')}: the folder ${missing} does not exist`],
      [['optimize', '--data', EURUSD_H1, '--strategy', 'englobante_entry', ...EXITS, '--csv', '-', '--heatmap', 'sl_pips,tp1_pips', '--heatmap-out', join(missing, 'h.svg')],
        `cannot write ${join(missing, 'h.svg')}: the folder ${missing} does not exist`],
      [['walk-forward', '--data', EURUSD_H1, '--strategy', 'englobante_entry', ...EXITS, '--in-sample', '60d', '--out-of-sample', '30d', '--csv', tmp.dir], `cannot write ${tmp.dir}: it is a directory`],
      [['batch', plan, '--no-progress', '--csv', join(plan, 'runs.csv')], `cannot write ${join(plan, 'runs.csv')}: ${plan} is not a folder`],
    ];
    const runs = await mapLimit(cases, 2, ([args]) => bt(args, { cwd: tmp.dir }));
    // Nothing on stdout: no table, no progress line, so no run was made.
    cases.forEach(([args, message], i) => assert.deepEqual(runs[i], { code: 1, stdout: '', stderr: `bt: ${message}\n` }, args.join(' ')));
  } finally {
    tmp.remove();
  }
});

test('a plan name makes the CSV in the current folder only: a name with a folder in it is refused', async () => {
  const tmp = tempDir();
  try {
    const write = (file: string, name: string) => {
      writeFileSync(join(tmp.dir, file), `{"name": ${name}, "strategies": ["englobante_entry"], "data": ${JSON.stringify(EURUSD_H1)}, "sl": 10, "tp1": 10}`);
      return join(tmp.dir, file);
    };
    const expected = '(expected a file name without folders: the CSV is {name}-runs.csv in the current folder)';
    const cases: [string, string][] = [
      [write('up.json', '"../escaped"'), `name: "../escaped" ${expected}`],
      [write('abs.json', JSON.stringify(join(tmp.dir, 'elsewhere'))), `name: ${JSON.stringify(join(tmp.dir, 'elsewhere'))} ${expected}`],
      [write('hidden.json', '".bashrc"'), `name: ".bashrc" ${expected}`],
      [write('object.json', '{"a": 1}'), `name: an object ${expected}`],
    ];
    const work = join(tmp.dir, 'work');
    mkdirSync(work);
    const runs = await mapLimit(cases, 2, ([plan]) => bt(['batch', plan, '--no-progress'], { cwd: work }));
    cases.forEach(([plan, message], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr: `bt: invalid plan ${plan}: ${message}\n` }, plan));
    // A number (YAML's `name: 2024`) or no name at all (`name:` is null) still names the CSV.
    const year = await bt(['batch', write('year.json', '2024'), '--no-progress', '--concurrency', '1'], { cwd: work });
    const none = await bt(['batch', write('none.json', 'null'), '--no-progress', '--concurrency', '1'], { cwd: work });
    assert.equal(year.code, 0, year.stderr);
    assert.equal(none.code, 0, none.stderr);
    assert.deepEqual(readdirSync(work).sort(), ['2024-runs.csv', 'none-runs.csv']);
    assert.deepEqual(readdirSync(tmp.dir).filter((f) => f.endsWith('.csv')), []);
  } finally {
    tmp.remove();
  }
});

test('a workbook folder that cannot be made is exit 1 at once, not a hang (/proc)', { skip: process.platform !== 'linux' }, async () => {
  const tmp = tempDir();
  try {
    const started = Date.now();
    const run = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--out', '/proc/bt-nope']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "bt: cannot write the workbook under /proc/bt-nope: ENOENT: no such file or directory, mkdir '/proc/bt-nope'\n");
    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry]\ndata: ${EURUSD_H1}\nsl: 10\ntp1: 20\nout: /proc/bt-nope\n`);
    const batch = await bt(['batch', plan, '--no-progress', '--concurrency', '1', '--csv', join(tmp.dir, 'runs.csv')]);
    assert.equal(batch.code, 1);
    assert.match(batch.stdout, /failed run 1 .*mkdir '\/proc\/bt-nope'/);
    // A hang guard, not a speed target: the hang never ended; three runs of bt take seconds, and
    // 120 s leaves a machine loaded twenty times over time for them.
    assert.ok(Date.now() - started < 120_000, `${Date.now() - started} ms`);
    // Nested folders that do not exist yet are made, as before.
    const nested = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--out', join(tmp.dir, 'a/b/c')]);
    assert.equal(nested.code, 0, nested.stderr);
    assert.equal(readdirSync(join(tmp.dir, 'a/b/c')).length, 1);
    // A file where a folder should be.
    const blocked = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--out', join(plan, 'x')]);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /^bt: cannot write the workbook under .*plan\.yaml\/x: ENOTDIR/);
  } finally {
    tmp.remove();
  }
});

test('commands whose workers each read the file refuse a pipe or a device in one sentence; a link loop is named', async () => {
  const tmp = tempDir();
  try {
    const pipe = join(tmp.dir, 'EURUSD_H1.csv');
    assert.equal(spawnSync('mkfifo', [pipe]).status, 0);
    const piped = `and this command's worker threads each read the file while a pipe can be read once: write it to a file first`;
    const plan = (name: string, data: string) => {
      writeFileSync(join(tmp.dir, name), `strategies: [englobante_entry]\ndata: ${data}\nsl: 10\ntp1: 20\n`);
      return join(tmp.dir, name);
    };
    symlinkSync('loop-b.csv', join(tmp.dir, 'loop-a.csv'));
    symlinkSync('loop-a.csv', join(tmp.dir, 'loop-b.csv'));
    const cases: [string[], string][] = [
      // No writer ever opens the pipe: reading it would wait for ever.
      [['optimize', '--data', pipe, '--strategy', 'englobante_entry', ...EXITS], `cannot read ${pipe}: a pipe, ${piped}`],
      [['walk-forward', '--data', pipe, '--strategy', 'englobante_entry', ...EXITS, '--in-sample', '60d', '--out-of-sample', '30d'], `cannot read ${pipe}: a pipe, ${piped}`],
      [['batch', plan('pipe.yaml', 'EURUSD_H1.csv')], `cannot read EURUSD_H1.csv: a pipe (data of plan ${join(tmp.dir, 'pipe.yaml')}), ${piped}`],
      // It used to say "it is a directory".
      [['batch', plan('zero.yaml', '/dev/zero')], `cannot read /dev/zero: not a regular file (a character device) (data of plan ${join(tmp.dir, 'zero.yaml')})`],
      [['backtest', '--data', 'loop-a.csv', '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10'], 'cannot read loop-a.csv: too many levels of symbolic links (a link that leads back to itself?)'],
    ];
    const runs = await mapLimit(cases, 2, ([args]) => bt(args, { cwd: tmp.dir }));
    cases.forEach(([args, message], i) => assert.deepEqual(runs[i], { code: 1, stdout: '', stderr: `bt: ${message}\n` }, args.join(' ')));
    assert.ok(!existsSync(join(tmp.dir, 'EURUSD_H1_englobante_entry-optimize.csv')));
  } finally {
    tmp.remove();
  }
});
