import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sampleCandles } from '../src/strategies/contract.js';
import { PythonSandbox, SandboxError, type SandboxRequest } from '../src/strategies/sandbox/sandbox.js';
import { TEST_DIALECT } from './support/db.js';
import { testSandbox } from './support/sandbox.js';
import { signalsOfColumns } from '../src/strategies/sandbox/signal-columns.js';

/**
 * The server's own check of the sandbox's answer, alone (docs/security.md, "What each layer
 * stops": forge the answer): with every Python-level check off (the test-only `pythonChecks:
 * 'none'`), the strategy writes its own answer on fd 1, as it could if the runner were beaten. The
 * engine must still get only the signals the contract allows, as many as it allows, and nothing else.
 */
const ONCE = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;
const candles = sampleCandles(50);
let sandbox: PythonSandbox;

before(async () => {
  sandbox = await testSandbox({ limits: { cpuSeconds: 5, wallMs: 15_000, maxSignals: 1000 } });
});

/** A strategy that answers `answer` (Python expression of the JSON object) itself, then exits. */
const forging = (answer: string) => `import json, os


def detect_forge(candles, params):
    os.write(1, json.dumps(${answer}).encode())
    os._exit(0)
`;

async function forged(answer: string, request: Partial<SandboxRequest> = {}) {
  try {
    return await sandbox.run({ source: forging(answer), mode: 'run', candles, meta: { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 }, pythonChecks: 'none', ...request });
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    return { code: err.code, detail: err.detail };
  }
}

const INFO = '{"function": "detect_forge", "detect_id": "forge", "meta": {}, "line": 4}';

describe('the server’s check of a forged answer, alone', { skip: ONCE }, () => {
  it('passes on a signal only its contract’s fields, as plain values', async () => {
    const result = await forged(`{"ok": True, "info": ${INFO}, "signals": [{"index": 3, "side": "buy", "stop": 1.0, "zone": {"top": 2.0, "bottom": 1.0, "extra": "x" * 100000}, "payload": list(range(100000))}]}`);
    assert.ok('signals' in result, JSON.stringify(result));
    assert.deepEqual(signalsOfColumns(result.signals), [{ index: 3, side: 'buy', stop: 1, zone: { top: 2, bottom: 1 } }]);
  });

  it('refuses more signals than the limit, as the runner would', async () => {
    const result = await forged(`{"ok": True, "info": ${INFO}, "signals": [{"index": 1, "side": "sell"}] * 1001}`);
    assert.deepEqual(result, { code: 'bad_output', detail: 'too_many' });
  });

  it('refuses an index outside the candles, a side, stop or zone out of the contract, and a pullback signal without a zone', async () => {
    const cases: [string, Partial<SandboxRequest>][] = [
      ['{"index": 50, "side": "buy"}', {}],
      ['{"index": 1.5, "side": "buy"}', {}],
      ['{"index": 1, "side": "up"}', {}],
      ['{"index": 1, "side": "buy", "stop": "1.0"}', {}],
      ['{"index": 1, "side": "buy", "zone": {"top": 1.0, "bottom": 2.0}}', {}],
      ['{"index": 1, "side": "buy", "zone": [2.0, 1.0]}', {}],
      ['{"index": 1, "side": "buy"}', { zoneRequired: true }],
    ];
    for (const [signal, request] of cases) {
      assert.deepEqual(await forged(`{"ok": True, "info": ${INFO}, "signals": [${signal}]}`, request), { code: 'protocol', detail: 'signals' }, signal);
    }
  });
});
