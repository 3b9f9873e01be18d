// Text that comes from a file reaches the terminal without its control characters (src/output.ts
// visible(), src/data.ts): a CSV column named with a terminal escape sequence (ESC [2J clears the
// screen, ESC ]0; retitles the window) was printed raw in problems and warnings, and a symbol row
// holding one became the run's symbol, printed in every title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, tempDir } from './helpers.js';

const ESC = '\u001b';
const ROWS = '2017-04-19 09:00:00+00:00,1.0716,1.0722,1.07083,1.07219,1413\n2017-04-19 10:00:00+00:00,1.07214,1.07296,1.07214,1.0726,1241\n';

test('a column name or a symbol row with escape sequences is printed escaped, never raw', async () => {
  const tmp = tempDir();
  try {
    const column = join(tmp.dir, 'EURUSD_H1_column.csv');
    writeFileSync(column, `Datetime,Open,High,Low,Close,Volume,Ex${ESC}[2Jtra\n${ROWS.replace(/\n/g, ',abc\n')}`);
    const twice = join(tmp.dir, 'EURUSD_H1_twice.csv');
    writeFileSync(twice, `Datetime,Open,High,Low,Close,Volume,X${ESC}]0;pwned\u0007,X${ESC}]0;pwned\u0007\n${ROWS.replace(/\n/g, ',1,1\n')}`);
    const symbol = join(tmp.dir, 'candles.csv');
    writeFileSync(symbol, `Datetime,Open,High,Low,Close,Volume\n,EUR${ESC}[31mUSD,,,,\n${ROWS}`);

    const validate = await bt(['validate', column, twice, symbol]);
    const backtest = await bt(['backtest', '--data', column, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10']);
    const unnamed = await bt(['backtest', '--data', symbol, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10']);
    for (const run of [validate, backtest, unnamed]) assert.ok(!(run.stdout + run.stderr).includes(ESC), run.stdout + run.stderr);

    assert.match(validate.stdout, /warning: line 2, column Ex\\u001b\[2Jtra: the extra column Ex\\u001b\[2Jtra holds text \("abc"\) and is not kept/);
    assert.match(validate.stdout, /^FAIL {2}.*EURUSD_H1_twice\.csv: /m);
    assert.match(validate.stdout, /the column X\\u001b\]0;pwned\\u0007 appears more than once/);
    assert.match(validate.stdout, /candles\.csv: 2 candles, H1, symbol unknown,/);
    assert.equal(backtest.code, 0, backtest.stderr);
    assert.match(backtest.stderr, /^bt: warning: .*column Ex\\u001b\[2Jtra: /m);
    // The symbol row is not used: the run needs --symbol, as for a file without one.
    assert.equal(unnamed.code, 2);
    assert.match(unnamed.stderr, /^bt: cannot tell the symbol of .*candles\.csv/);
  } finally {
    tmp.remove();
  }
});
