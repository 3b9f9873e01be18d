import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Semaphore } from '../src/app/semaphore.js';
import { CandleParsePool, ParseAborted } from '../src/uploads/parse-pool.js';
import { checkXlsx, XlsxTooManyRows, ZipRefusal } from '@bt/core/node';
import { register, useTestApp } from './support/app.js';
import { SQLITE_PASS_ONLY, TEST_DIALECT } from './support/db.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { funded } from './support/work.js';
import { bombWorkbook, candleWorkbook } from './support/xlsx-files.js';

const MB = 1024 * 1024;
// One gigabyte once inflated, about 3 MB sent: the workbook of the reported attack.
const BOMB = bombWorkbook(1024);

function uploadForm(file: Blob, name: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('strategy', 'fvg_pullback_multi');
  form.set('symbol', 'EURUSD');
  form.set('sl_pips', '10');
  form.set('tp1_pips', '10');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('csv_file', file, name);
  return form;
}

/** About `bytes` of valid M1 candles (spanning months: a user's upload of a long history). */
function bigCsv(bytes: number): Blob {
  const lines = ['Datetime,Open,High,Low,Close,Volume'];
  let size = lines[0].length + 1;
  const start = Date.UTC(2023, 0, 1);
  for (let i = 0; size + 80 < bytes; i++) {
    const p = (1.1 + Math.sin(i / 90) * 0.01).toFixed(5);
    const line = `${new Date(start + i * 60_000).toISOString().slice(0, 19)}+00:00,${p},${(+p + 0.0008).toFixed(5)},${(+p - 0.0008).toFixed(5)},${p},100`;
    lines.push(line);
    size += line.length + 1;
  }
  return new Blob([lines.join('\n')]);
}

describe('each layer of the upload bounds alone', { skip: SQLITE_PASS_ONLY }, () => {
  it('the .xlsx check refuses a bomb by its declared size, a lying bomb while inflating, and rows past the cap', async () => {
    const budget = { maxInflatedBytes: 64 * MB, maxRows: 100_000 };
    await assert.rejects(checkXlsx(BOMB, budget), (e: unknown) => e instanceof ZipRefusal && e.code === 'too_large');
    await assert.rejects(checkXlsx(bombWorkbook(200, { lie: true }), budget), (e: unknown) => e instanceof ZipRefusal);
    // Headers that tell the truth but an inflated size over the budget: counted as it streams.
    await assert.rejects(checkXlsx(bombWorkbook(80), budget), (e: unknown) => e instanceof ZipRefusal && e.code === 'too_large');
    await assert.rejects(checkXlsx(candleWorkbook(3000), { ...budget, maxRows: 2000 }), XlsxTooManyRows);
    await assert.doesNotReject(checkXlsx(candleWorkbook(3000), { ...budget, maxRows: 3001 }));
    await assert.rejects(checkXlsx(new TextEncoder().encode('PK\u0003\u0004 not really a zip'), budget), (e: unknown) => e instanceof ZipRefusal && e.code === 'not_zip');
  });

  it('a parse worker that needs more memory than its cap ends alone; the pool goes on serving', async () => {
    const pool = new CandleParsePool({ concurrency: 1, parseMemoryMb: 48, parseTimeoutMs: 60_000 });
    try {
      // 60,000 rows pass a lenient .xlsx check but the spreadsheet reader needs far more than 48 MB.
      const task = (bytes: Uint8Array) => ({ bytes, kind: 'xlsx' as const, filename: 'big.xlsx', symbol: 'EURUSD', xlsx: { maxInflatedBytes: 512 * MB, maxRows: 1_000_000 } });
      await assert.rejects(pool.parse(task(new Uint8Array(candleWorkbook(60_000)))), (e: unknown) => e instanceof ParseAborted && e.reason === 'memory');
      const small = await pool.parse(task(new Uint8Array(candleWorkbook(200))));
      assert.equal(small.ok, true);
    } finally {
      await pool.close();
    }
  });

  it('the upload gate lets `size` run, queues up to its limit, and refuses the rest at once', async () => {
    const gate = new Semaphore(2, 3);
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const started: number[] = [];
    const runs = Array.from({ length: 7 }, (_, i) => gate.tryUse(async () => (started.push(i), await hold, i)));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1]);
    release();
    const results = await Promise.all(runs);
    assert.deepEqual(results.map((r) => r?.value ?? null), [0, 1, 2, 3, 4, null, null]);
  });
});

describe(`uploads: credits before parsing, container checks (${TEST_DIALECT})`, () => {
  const t = useTestApp();

  it('an account without the credits of a backtest gets 402 before its file is read or parsed', async () => {
    const user = await register(t);
    const before = t.app.services.uploads.parsesStarted;
    for (let i = 0; i < 4; i++) {
      const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(new Blob([BOMB]), 'bomb.xlsx') });
      assert.equal(res.status, 402);
    }
    assert.equal(t.app.services.uploads.parsesStarted, before, 'nothing was parsed');
  });

  it('a .csv that is really a workbook, and an .xlsx that is not, are refused before any reader sees them', async () => {
    const user = await funded(t, 10);
    const zipAsCsv = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(new Blob([BOMB]), 'data.csv') });
    assert.equal(zipAsCsv.status, 400);
    assert.match(zipAsCsv.body.detail, /n'est pas un fichier texte CSV/);
    const textAsXlsx = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(new Blob(['Datetime,Open\n']), 'data.xlsx') });
    assert.equal(textAsXlsx.status, 400);
    assert.match(textAsXlsx.body.detail, /n’est pas un classeur Excel/);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.credits, 10);
  });

  it('a workbook within the bounds still runs a backtest', async () => {
    const user = await funded(t, 10);
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: uploadForm(new Blob([candleWorkbook(3000)]), 'm1.xlsx') });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.credits_remaining, 8);
  });
});

describe('uploads against a server process: bombs, floods, temp files, memory', { skip: SQLITE_PASS_ONLY }, () => {
  let server: ServerProcess;
  let key = '';
  before(async () => {
    server = await startServerProcess();
    const person = { first_name: 'Ana', last_name: 'Lyse', email: 'uploads@example.com', username: 'uploads', password: 'motdepasse-1' };
    const reg = (await fetch(`${server.url}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(person) }).then((r) => r.json())) as { token: string; verifyUrl: string };
    key = reg.token;
    // PORT=0: the link's origin is not the listening one.
    await fetch(reg.verifyUrl.replace(/^http:\/\/[^/]+/, server.url), { redirect: 'manual' });
    const me = (await fetch(`${server.url}/api/me`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { credits: number };
    assert.equal(me.credits, 2);
  });
  after(async () => {
    await server?.stop();
  });

  const post = (form: FormData) => fetch(`${server.url}/api/upload_csv_and_backtest`, { method: 'POST', headers: { 'x-api-key': key }, body: form });

  /** Health keeps answering while `work` runs (the event loop is never held by a parse). */
  async function whileHealthy<T>(work: Promise<T>): Promise<{ value: T; checks: number }> {
    let done = false;
    let checks = 0;
    const probe = (async () => {
      while (!done) {
        const res = await fetch(`${server.url}/api/health`).catch((err) => {
          throw new Error(`health failed: ${String(err.cause ?? err)}`);
        });
        // A 503 here was once the database check timed out by a stall of the whole machine (two
        // cores, fourteen test files), not by a parse: test/health-event-loop-stall.test.ts.
        const body = await res.text();
        assert.equal(res.status, 200, body);
        checks++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      return { value: await work, checks };
    } finally {
      done = true;
      await probe;
    }
  }

  it('four parallel decompression bombs each get 413; the server answers health throughout', async () => {
    const { value, checks } = await whileHealthy(Promise.all(Array.from({ length: 4 }, () => post(uploadForm(new Blob([BOMB]), 'bomb.xlsx')))));
    for (const res of value) {
      assert.equal(res.status, 413);
      assert.match(((await res.json()) as { detail: string }).detail, /trop volumineux une fois décompressé/);
    }
    assert.ok(checks >= 1);
    const me = (await fetch(`${server.url}/api/me`, { headers: { 'x-api-key': key } }).then((r) => r.json())) as { credits: number };
    assert.equal(me.credits, 2, 'refused uploads cost nothing');
  });

  it('20 parallel 20 MB CSV uploads each get a clear 4xx, and peak memory stays under 1.5 GB', async () => {
    // 20 MB of candles (inside the 20 MiB limit): read and parsed, then refused for their period.
    const within = bigCsv(20_000_000);
    // Over the limit: refused from the declared length, never read.
    const over = bigCsv(22 * MB);
    const sends = Array.from({ length: 20 }, (_, i) =>
      post(uploadForm(i % 5 === 4 ? over : within, `big-${i}.csv`)).catch((err) => {
        throw new Error(`upload ${i} failed: ${String(err.cause ?? err)}`);
      }),
    );
    const { value } = await whileHealthy(Promise.all(sends));
    for (const [i, res] of value.entries()) {
      const body = (await res.json()) as { detail: string };
      if (i % 5 === 4) assert.deepEqual([res.status, body.detail], [413, 'Fichier trop volumineux (20 Mo maximum).']);
      else assert.deepEqual([res.status, /^Période trop longue \(\d+ jours\)\. Maximum : 31 jours\.$/.test(body.detail)], [400, true], body.detail);
    }
    const peak = server.peakRss();
    console.log(`server peak RSS after the upload floods: ${Math.round(peak / MB)} MB`);
    assert.ok(peak < 1536 * MB, `peak RSS ${Math.round(peak / MB)} MB`);
  });

  it('multipart bodies sent to routes that take no upload leave nothing in the temp folder', async () => {
    // What the process itself keeps there (tsx's compile cache) is not ours to judge.
    const before = new Set(readdirSync(server.tmpDir));
    const file = new Blob([new Uint8Array(900 * 1024).fill(65)]);
    const targets: [string, string][] = [
      ['POST', '/api/health'],
      ['POST', '/api/login'],
      ['POST', '/api/register'],
      ['POST', '/api/support'],
      ['POST', '/api/run_backtest'],
      ['POST', '/api/admin/add_credit'],
      ['POST', '/api/profile/set-password'],
      ['POST', '/API/upload_csv_and_backtest'],
      ['POST', '/api/Upload_Csv_And_Backtest/'],
      ['PATCH', '/api/user/strategies/x/note'],
    ];
    for (const [method, path] of targets) {
      const form = new FormData();
      form.set('field', 'value');
      form.set('file', file, 'payload.bin');
      const res = await fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': key }, body: form });
      assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
      await res.arrayBuffer();
    }
    assert.deepEqual(readdirSync(server.tmpDir).filter((name) => !before.has(name)), []);
    assert.deepEqual([...before].filter((name) => !/^tsx-\d+$/.test(name)), [], 'nothing but tsx’s cache from earlier uploads either');
  });

  it('a truncated multipart body is a 400, on the upload route and on a form route', async () => {
    for (const path of ['/api/upload_csv_and_backtest', '/api/profile/update']) {
      const boundary = 'xyzBOUNDARYxyz';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="csv_file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nDatetime,Open,High,Low,Close,Volume\r\n2024-01-01T00:00:00+00:00,1,2`;
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(server.url);
        const req = httpRequest(
          { host: url.hostname, port: url.port, method: 'POST', path, headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      assert.equal(status, 400, path);
    }
    assert.doesNotMatch(server.output(), /failed: /, 'no 500 in the server log');
  });
});
