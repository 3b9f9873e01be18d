/**
 * Direct calls to the bt server for what a flow needs around the browser: accounts to seed with,
 * backtests that fill the public top list, answers to compare the screens with.
 */
import assert from 'node:assert/strict';

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

let counter = 0;

/** A fresh account's fields (unique per run). */
export function newAccount(firstName: string, lastName: string): Account {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const username = `${firstName.toLowerCase()}.${tag}`;
  return { firstName, lastName, email: `${username}@bt.test`, username, password: 'motdepasse-123' };
}

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  assert.ok(response.ok, `${what}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Registers and verifies through the API (no SMTP: the answer carries the link). Returns the key. */
export async function registerVerified(baseUrl: string, account: Account): Promise<string> {
  const answer = await json<{ apiKey: string; verifyUrl?: string }>(
    await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: account.firstName, last_name: account.lastName, email: account.email, username: account.username, password: account.password }),
    }),
    'register',
  );
  assert.ok(answer.verifyUrl, 'without SMTP the registration answer carries the verification link');
  const verify = await fetch(answer.verifyUrl, { redirect: 'manual' });
  assert.match(verify.headers.get('location') ?? '', /\/profile\?verified=1$/);
  return answer.apiKey;
}

export interface OfficialRun {
  strategy: string;
  symbol: string;
  timeframe: string;
  start: string;
  end: string;
  sl: number;
  tp1: number;
  tp2: number;
}

export async function runOfficialBacktest(baseUrl: string, key: string, run: OfficialRun): Promise<Record<string, unknown>> {
  return json(
    await fetch(`${baseUrl}/api/run_backtest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({
        strategy: run.strategy,
        params: {},
        symbol: run.symbol,
        timeframe: run.timeframe,
        start_date: run.start,
        end_date: run.end,
        sl_pips: run.sl,
        tp1_pips: run.tp1,
        tp2_pips: run.tp2,
      }),
    }),
    `run_backtest ${run.strategy}`,
  );
}

export interface TopEntry {
  pair: string;
  timeframe: string;
  strategy: string;
  strategy_label: string;
  from_date: string;
  to_date: string;
  period: string;
  winrate_tp1: number;
  trades: number;
  folder: string;
}

export async function topStrategies(baseUrl: string): Promise<TopEntry[]> {
  return json(await fetch(`${baseUrl}/api/top-strategy`), 'top-strategy');
}

export async function me(baseUrl: string, key: string): Promise<Record<string, unknown>> {
  return json(await fetch(`${baseUrl}/api/me`, { headers: { 'X-API-Key': key } }), 'me');
}
