// docs/cli.md documents every command and every option the program declares, and the rank metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RANK_METRICS } from '../src/batch/rank.js';
import { createProgram } from '../src/program.js';
import { root } from './helpers.js';

const doc = readFileSync(join(root, 'docs/cli.md'), 'utf8');

test('every command has a section and every option is named in docs/cli.md', () => {
  const program = createProgram();
  for (const command of program.commands) {
    assert.match(doc, new RegExp(`^### .*\`bt ${command.name()}[ \`]`, 'm'), `section for ${command.name()}`);
    // Subcommands (bt admin metrics overview ...) are named in their command's section, with every option.
    const walk = (cmd: typeof command, path: string) => {
      for (const option of cmd.options) {
        const flag = option.long!;
        if (flag === '--help') continue;
        assert.ok(doc.includes(flag), `${path} ${flag}`);
      }
      for (const sub of cmd.commands) {
        const name = `${path} ${sub.name()}`;
        if (sub.commands.length === 0) assert.ok(doc.includes(`\`${name}`), `${name} is documented`);
        walk(sub, name);
      }
    };
    walk(command, `bt ${command.name()}`);
  }
  for (const metric of Object.keys(RANK_METRICS)) assert.ok(doc.includes(`\`${metric}\``), metric);
  for (const code of ['`0` success', '`1` failed run or bad data', '`2` usage error']) assert.ok(doc.includes(code), code);
});
