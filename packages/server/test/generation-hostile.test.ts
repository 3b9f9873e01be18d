import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OpenAiCompatibleClient } from '../src/gpt/llm.js';
import { startTestApp, type TestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { BREAKOUT_PY, funded } from './support/work.js';

/**
 * A chat endpoint that answers what a prompt injection or a hostile provider would: its file goes
 * through exactly the checks of an import (docs/strategies-python.md, "AI generation"), and what is
 * read of its answer is bounded in size and time. Each failure is a 4xx or 502 with its French
 * sentence, never a 500, and leaves no strategy.
 */
const t = useTestApp();

const generate = (app: TestApp, key: string, prompt: string) =>
  app.request('POST', '/api/gpt/generate-strategy', { key, json: { prompt, sl_mode: 'external' } });

type Handler = (res: import('node:http').ServerResponse) => void;

describe(`generation from a hostile chat endpoint (${TEST_DIALECT})`, () => {
  const answers: Handler[] = [];
  let server: Server;
  let app: TestApp;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => (answers.shift() ?? ((r) => r.writeHead(500).end('{}')))(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    app = await startTestApp(t.db, { llm: new OpenAiCompatibleClient({ baseUrl: url, apiKey: 'sk-test', model: 'test-model', timeoutMs: 1500 }) });
  });
  after(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const completion = (content: string): Handler => (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));

  it('a file over the import’s size limit is refused as an import would be, sent back once, then given up', async () => {
    const user = await funded(app, 0);
    answers.length = 0;
    // A valid strategy the injection padded past 256 KB.
    const padded = `\`\`\`python\n${BREAKOUT_PY}${'# bourrage\n'.repeat(30_000)}\`\`\``;
    answers.push(completion(padded), completion(padded));
    const res = await generate(app, user.key, 'Cassure des 12 dernières clôtures');
    assert.deepEqual([res.status, res.body.detail, res.body.reason], [400, 'Stratégie impossible à générer. Reformule plus clairement la logique.', 'Fichier trop volumineux (256 Ko maximum).']);
    assert.equal((await app.request('GET', '/api/user/strategies', { key: user.key })).body.total, 0);
  });

  it('a file whose PARAMS default is out of an engine parameter’s bounds is sent back to the model, like any refusal', async () => {
    const user = await funded(app, 0);
    answers.length = 0;
    const bad = `\`\`\`python\nPARAMS = {"rsi_threshold": 200}\n\ndef detect_x(candles, params):\n    return []\n\`\`\``;
    answers.push(completion(bad), completion(bad));
    const res = await generate(app, user.key, 'RSI');
    assert.deepEqual([res.status, res.body.detail, res.body.reason], [400, 'Stratégie impossible à générer. Reformule plus clairement la logique.', 'Paramètre « rsi_threshold » invalide : 200 (attendu : un nombre de 0 à 100).']);
  });

  it('an answer of several megabytes is refused unread past its bound (502)', async () => {
    const user = await funded(app, 0);
    answers.length = 0;
    answers.push(completion(`\`\`\`python\n${BREAKOUT_PY}${'#'.repeat(8 * 1024 * 1024)}\n\`\`\``));
    const res = await generate(app, user.key, 'Cassure');
    assert.deepEqual([res.status, res.body.detail], [502, 'Erreur génération GPT']);
    assert.ok(app.logs.some((l) => /chat endpoint failed: answer larger than 2097152 bytes/.test(l)), app.logs.join('\n'));
  });

  it('an answer whose body stalls past the time limit is a 502, not a 500', async () => {
    const user = await funded(app, 0);
    answers.length = 0;
    answers.push((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices": [{"message": {"content": "');
    });
    const res = await generate(app, user.key, 'Cassure');
    assert.deepEqual([res.status, res.body.detail], [502, 'Erreur génération GPT']);
    assert.ok(app.logs.some((l) => /chat endpoint failed: reading the answer failed/.test(l)), app.logs.join('\n'));
    assert.equal((await app.request('GET', '/api/user/strategies', { key: user.key })).body.total, 0);
  });
});
