import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register, type TestApp } from './app.js';

/** The repository's fixtures (real data first). */
export const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
export const fixture = (path: string) => readFileSync(FIXTURES + path);

/** A registered user holding `credits` (granted by the ledger, as an admin would). */
export async function funded(t: TestApp, credits: number) {
  const user = await register(t);
  if (credits > 0) await t.app.services.ledger.grant(user.id, credits, 'admin');
  return user;
}

export async function makeAdmin(t: TestApp, credits = 0) {
  const user = await funded(t, credits);
  await t.db.models.User.update({ role: 'admin' }, { where: { id: user.id } });
  return user;
}

export async function balance(t: TestApp, userId: number): Promise<number> {
  return t.app.services.ledger.balance(userId);
}

export { OFFICIAL_RUN } from './official-run.js';
import { OFFICIAL_RUN } from './official-run.js';

export function runBacktest(t: TestApp, key: string, overrides: Record<string, unknown> = {}) {
  return t.request('POST', '/api/run_backtest', { key, json: { ...OFFICIAL_RUN, ...overrides } });
}

/** A valid personal strategy: breakout of the previous `lookback` closes. */
export const BREAKOUT_PY = `"""Breakout: a close above the highest of the previous closes."""
from statistics import mean

NAME = "Cassure simple"
DESCRIPTION = "Achat quand la clôture dépasse les N clôtures précédentes, vente à l'inverse."
PARAMS = {"lookback": 12, "min_body_pips": 0.0}


def detect_breakout(candles, params):
    close, open_ = candles["close"], candles["open"]
    n = int(params["lookback"])
    pip = candles["pip_size"]
    out = []
    for i in range(n, len(close)):
        window = close[i - n:i]
        body = abs(close[i] - open_[i]) / pip
        if body < params["min_body_pips"]:
            continue
        if close[i] > max(window):
            out.append({"index": i, "side": "buy"})
        elif close[i] < min(window):
            out.append({"index": i, "side": "sell", "stop": max(candles["high"][i - 1], candles["high"][i])})
    return out
`;

/** Imports a .py through the multipart route. */
export function importStrategy(t: TestApp, key: string, source: string | Uint8Array, filename = 'strategie.py', fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([typeof source === 'string' ? new TextEncoder().encode(source) : source]), filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return t.request('POST', '/api/user/strategies/import', { key, form });
}

export async function ledgerRows(t: TestApp, userId: number) {
  return t.db.models.CreditEntry.findAll({ where: { userId }, order: [['id', 'ASC']] });
}
