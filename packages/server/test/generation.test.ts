import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listZones } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';
import { emitPython } from '../src/gpt/builtin/emit.js';
import { parsePrompt, type PatternKind, type StrategySpec } from '../src/gpt/builtin/parse.js';
import { OpenAiCompatibleClient } from '../src/gpt/llm.js';
import { sliceCandles } from '../src/datasets/series.js';
import { startTestApp, TEST_SANDBOX_LIMITS, type TestApp, useTestApp } from './support/app.js';
import { testSandbox } from './support/sandbox.js';
import { TEST_DIALECT } from './support/db.js';
import { startLlmServer } from './support/llm-server.js';
import { BREAKOUT_PY, FIXTURES, balance, funded, runBacktest } from './support/work.js';
import { signalsOfColumns } from '../src/strategies/sandbox/signal-columns.js';

const t = useTestApp({ library: true });

const generate = (app: TestApp, key: string, prompt: string, slMode = 'external') =>
  app.request('POST', '/api/gpt/generate-strategy', { key, json: { prompt, sl_mode: slMode } });

/** Varied prompts (French and English) and what the built-in generator must read in them. */
const PROMPTS: [string, Partial<StrategySpec>][] = [
  ['FVG haussier avec RSI sous 35, attendre 2 bougies, session de Londres', { pattern: 'fvg', side: 'buy', rsi: { threshold: 35 }, minWait: 2, hours: { from: 8, to: 12, label: 'Londres' } }],
  ['Order block baissier, ventes uniquement, avec bougie de confirmation et tendance EMA 20/100', { pattern: 'order_block', side: 'sell', confirm: true, trend: { fast: 20, slow: 100 } }],
  ['Bullish engulfing with RSI below 40 and price above EMA 50', { pattern: 'engulfing', side: 'buy', rsi: { threshold: 40 }, ema: { period: 50 } }],
  ['FVG impulsive with a minimum gap of 3 pips, buy only', { pattern: 'fvg_impulsive', side: 'buy', minZonePips: 3 }],
  ['OB avec gap net, entrée à 50% de la zone, expire après 15 bougies', { pattern: 'order_block_gap', overlap: 0.5, maxWait: 15, side: 'both' }],
  ['Englobante 3 bougies dans le sens de la tendance (EMA 50 et EMA 200)', { pattern: 'engulfing', trend: { fast: 50, slow: 200 }, side: 'both' }],
  ['Fair value gap pullback between 8h and 12h UTC, RSI(7) oversold', { pattern: 'fvg', rsi: { period: 7, threshold: 30 }, hours: { from: 8, to: 11 } }],
  ['Bougie impulsive vendeuse quand le RSI est au dessus de 60', { pattern: 'fvg_impulsive', side: 'sell', rsi: { threshold: 40 } }],
  ['order block pullback, multiple entries, wait at least 3 candles, max 10 candles, zones of at least 4 pips', { pattern: 'order_block', multipleEntries: true, minWait: 3, maxWait: 10, minZonePips: 4 }],
  ['Imbalance short only during the New York session, with the trend EMA 20/50', { pattern: 'fvg', side: 'sell', trend: { fast: 20, slow: 50 }, hours: { from: 17, to: 21, label: 'New York' } }],
  ['Avalement haussier après survente, RSI(14) < 30, uniquement des achats', { pattern: 'engulfing', side: 'buy', rsi: { period: 14, threshold: 30 } }],
  ['FVG avec bougie de confirmation et profondeur de retour de 25 %, entre 2 et 12 bougies', { pattern: 'fvg', confirm: true, overlap: 0.25, minWait: 2, maxWait: 12 }],
];

describe('built-in generator: reading prompts', () => {
  it('reads pattern, side, filters, thresholds, waits, sizes and hours in French and English', () => {
    for (const [prompt, expected] of PROMPTS) {
      const spec = parsePrompt(prompt);
      assert.ok(spec, prompt);
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(spec[key as keyof StrategySpec], value, `${prompt} → ${key}`);
    }
    for (const vague of ['Gagner de l’argent facilement', 'buy low sell high', '']) assert.equal(parsePrompt(vague), null, vague);
  });

  it('the emitted detection matches the engine’s own zones, pattern by pattern, on real EURUSD H1 data', async () => {
    const sandbox = await testSandbox({ limits: TEST_SANDBOX_LIMITS });
    const { candles: all } = await readCandlesFile(FIXTURES + 'official/EURUSD_H1_2017-2018.csv');
    const candles = sliceCandles(all, 0, 1500);
    const patterns: PatternKind[] = ['fvg', 'order_block', 'order_block_gap', 'fvg_impulsive', 'engulfing'];
    for (const pattern of patterns) {
      const { source } = emitPython({ pattern, side: 'both' });
      const { signals } = await sandbox.run({ source, mode: 'run', candles, meta: { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 }, params: {} });
      const zones = listZones(candles, pattern);
      assert.ok(zones.length > 20, `${pattern}: ${zones.length} zones`);
      const ours = signalsOfColumns(signals).map((s) => [s.index, s.side, s.zone?.top, s.zone?.bottom].join(' ')).sort();
      const pullback = pattern !== 'fvg_impulsive' && pattern !== 'engulfing';
      const engine = zones.map((z) => [z.confirmed_index, z.side, pullback ? z.top : undefined, pullback ? z.bottom : undefined].join(' ')).sort();
      assert.deepEqual(ours, engine, pattern);
    }
  });
});

describe(`POST /api/gpt/generate-strategy, built-in generator (${TEST_DIALECT})`, () => {
  it(`turns ${PROMPTS.length} varied prompts into valid strategies that run in a backtest`, async () => {
    const user = await funded(t, 2 * PROMPTS.length);
    for (const [prompt] of PROMPTS) {
      const res = await generate(t, user.key, prompt);
      assert.equal(res.status, 201, `${prompt}: ${res.text}`);
      assert.deepEqual([res.body.success, res.body.provider, res.body.attempts, res.body.strategy.source], [true, 'builtin', 1, 'gpt']);
      assert.match(res.body.strategy_id, /^us_/);
      assert.match(res.body.comment, /^Motif : /);
      assert.equal(res.body.strategy.meta.user_input, prompt);
      const run = await runBacktest(t, user.key, { strategy: res.body.strategy_id, timeframe: 'H1', start_date: '2023-03-01', end_date: '2023-03-31' });
      assert.equal(run.status, 200, `${prompt}: ${run.text}`);
      assert.equal(run.body.user_strategy_id, res.body.strategy_id);
    }
    assert.equal(await balance(t, user.id), 0, 'generation is free, each backtest cost 2');
    const overview = await t.app.services.archive.overview('gpt');
    assert.equal(overview.total_archived, PROMPTS.length);
    assert.equal(overview.avg_attempts, 1);
    assert.equal(overview.openai_failures, 0);
  });

  it('GET /api/gpt/provider names the built-in generator, with or without a key; another letter case is no route', async () => {
    const anonymous = await t.request('GET', '/api/gpt/provider');
    assert.deepEqual([anonymous.status, anonymous.body], [200, { provider: 'builtin' }]);
    const user = await funded(t, 0);
    assert.deepEqual((await t.request('GET', '/api/gpt/provider?provider=openai', { key: user.key })).body, { provider: 'builtin' });
    assert.equal((await t.request('GET', '/api/GPT/provider')).status, 404);
    assert.equal((await t.request('POST', '/api/gpt/provider', { json: { provider: 'openai' } })).status, 405);
  });

  it('a wait or a depth the engine would refuse as read is made valid, never a file the generator itself refuses', async () => {
    const user = await funded(t, 0);
    const cases: [string, Record<string, unknown>][] = [
      ['FVG, zone valable 2 bougies', { min_wait_candles: 1, max_wait_candles: 2 }],
      ['FVG, max 0 bougies', {}],
      ['Order block, attendre au moins 30 bougies', { min_wait_candles: 30, max_wait_candles: 47 }],
      ['FVG avec une profondeur de 0.01 %', {}],
    ];
    for (const [prompt, waits] of cases) {
      const res = await generate(t, user.key, prompt);
      assert.equal(res.status, 201, `${prompt}: ${res.text}`);
      const params = res.body.strategy.params as Record<string, unknown>;
      assert.deepEqual({ min_wait_candles: params.min_wait_candles, max_wait_candles: params.max_wait_candles, min_overlap_ratio: params.min_overlap_ratio }, { min_wait_candles: undefined, max_wait_candles: undefined, min_overlap_ratio: undefined, ...waits }, prompt);
    }
    assert.deepEqual(t.logs.filter((l) => /builtin generator: emitted file refused/.test(l)), []);
  });

  it('answers the spec’s sentences for an empty or unreadable prompt', async () => {
    const user = await funded(t, 0);
    const empty = await generate(t, user.key, '   ');
    assert.deepEqual([empty.status, empty.body.detail], [400, 'Décris la logique de ta stratégie.']);
    const vague = await generate(t, user.key, 'Une stratégie qui gagne à tous les coups');
    assert.deepEqual([vague.status, vague.body.detail], [400, 'Stratégie impossible à générer. Reformule plus clairement la logique.']);
    const mode = await generate(t, user.key, 'FVG', 'sometimes');
    assert.deepEqual([mode.status, mode.body.detail], [400, 'sl_mode invalide (internal ou external).']);
    const anonymous = await t.request('POST', '/api/gpt/generate-strategy', { json: { prompt: 'FVG' } });
    assert.equal(anonymous.status, 401);
    const internal = await generate(t, user.key, 'FVG pullback', 'internal');
    assert.equal(internal.body.strategy.sl_mode, 'internal');
  });
});

describe(`POST /api/gpt/generate-strategy with a chat model (${TEST_DIALECT})`, () => {
  let llm: Awaited<ReturnType<typeof startLlmServer>>;
  let app: TestApp;
  before(async () => {
    llm = await startLlmServer();
    app = await startTestApp(t.db, { library: true, llm: new OpenAiCompatibleClient({ baseUrl: llm.url, apiKey: 'sk-test', model: 'test-model', timeoutMs: 5000 }) });
  });
  after(async () => {
    await app.close();
    await llm.close();
  });

  it('sends the contract to the model, validates its file, retries once with the refusal, and archives attempts and timing', async () => {
    const user = await funded(app, 2);
    llm.script.push(
      { content: 'Voici :\n```python\nimport os\ndef detect_bad(candles, params):\n    return []\n```' },
      { content: `Corrigé :\n\`\`\`python\n${BREAKOUT_PY}\`\`\`` },
    );
    const res = await generate(app, user.key, 'Cassure des 12 dernières clôtures');
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.provider, res.body.attempts, res.body.strategy.display_name], ['openai', 2, 'Cassure simple']);
    assert.equal(llm.requests.length, 2);
    const [first, second] = llm.requests;
    assert.equal(first.authorization, 'Bearer sk-test');
    assert.equal(first.body.model, 'test-model');
    assert.match(first.body.messages[0].content, /detect_<id>\(candles, params\)/);
    assert.match(first.body.messages[1].content, /Cassure des 12 dernières clôtures/);
    assert.match(second.body.messages.at(-1)!.content, /Import interdit ligne 1 : « os »/, 'the refusal goes back to the model');
    const archived = await app.db.models.ArchivedStrategy.findOne({ where: { strategyId: res.body.strategy_id } });
    const meta = JSON.parse(archived!.meta!);
    assert.deepEqual([meta.provider, meta.model, meta.attempts, meta.dry_run_failures, meta.openai_failures], ['openai', 'test-model', 2, 1, 0]);
    assert.ok(meta.generation_seconds > 0);
    const run = await runBacktest(app, user.key, { strategy: res.body.strategy_id });
    assert.equal(run.status, 200, run.text);
  });

  it('GET /api/gpt/provider names the chat model when one is configured (never the model or its key)', async () => {
    const res = await app.request('GET', '/api/gpt/provider');
    assert.deepEqual([res.status, res.body], [200, { provider: 'openai' }]);
  });

  it('gives up after two refused files, and answers 502 when the endpoint fails', async () => {
    const user = await funded(app, 0);
    llm.script.push({ content: 'Je ne peux pas.' }, { content: '```python\ndef detect_x(candles, params):\n    return eval("[]")\n```' });
    const refused = await generate(app, user.key, 'Quelque chose');
    assert.deepEqual([refused.status, refused.body.detail], [400, 'Stratégie impossible à générer. Reformule plus clairement la logique.']);
    assert.match(refused.body.reason, /Fonction interdite ligne 2 : « eval »/);
    llm.script.push({ status: 500, raw: '{"error":{"message":"overloaded"}}' });
    const failed = await generate(app, user.key, 'FVG');
    assert.deepEqual([failed.status, failed.body.detail], [502, 'Erreur génération GPT']);
    assert.ok(app.logs.some((l) => /chat endpoint failed: HTTP 500/.test(l)));
    const overview = await app.app.services.archive.overview('gpt');
    assert.equal(overview.openai_failures, 1);
    assert.ok(overview.dry_run_failures >= 3);
    assert.equal((await app.request('GET', '/api/user/strategies', { key: user.key })).body.total, 0);
  });

  it('a second generation while the first runs gets the spec’s "not yet available" sentence', async () => {
    const user = await funded(app, 0);
    llm.script.push({ content: `\`\`\`python\n${BREAKOUT_PY}\`\`\``, delayMs: 400 });
    const first = generate(app, user.key, 'Cassure');
    await new Promise((r) => setTimeout(r, 100));
    const second = await generate(app, user.key, 'Cassure encore');
    assert.deepEqual([second.status, second.body.detail], [409, "La stratégie n'est pas encore disponible. Réessaie dans 2s ou régénère."]);
    assert.equal((await first).status, 201);
  });
});
