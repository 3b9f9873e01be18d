// Owns the `admin-metrics` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// The admin statistics over a large event log: 250,000 events over a year (purchases, backtests,
// sign-ups, activity, credits, failed payments) from 5,000 users, generated with core's seeded
// generator and recorded through the EventLog, on SQLite (the embedded default) and on MariaDB
// when one answers at BT_TEST_MYSQL_URL (default mysql://root@127.0.0.1:3306). Each figure is the
// median of 5 calls of the Statistics service (the database's GROUP BY, nothing counted in
// JavaScript), for the `month` and `all` ranges.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '@bt/core/candles';
import { ManualClock } from '../src/clock/index.js';
import { migrate, openDatabase, type Database } from '../src/db/index.js';
import { BREAKDOWN_KINDS } from '../src/events/breakdowns.js';
import { EventLog, type EventInput } from '../src/events/log.js';
import { parseRange } from '../src/events/ranges.js';
import { Statistics } from '../src/events/statistics.js';
import { createTestDatabaseUrl } from '../test/support/db.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const SECTION = 'admin-metrics';
const EVENTS = 250_000;
const USERS = 5_000;
const ROUNDS = 5;
const NOW = Date.parse('2026-01-15T12:00:00Z');
const YEAR = 365 * 86_400_000;

const SYMBOLS = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'US500', 'BTC-USD'];
const TIMEFRAMES = ['M5', 'M15', 'M30', 'H1', 'H4'];
const STRATEGIES = ['fvg_pullback_multi', 'ob_pullback_pure', 'englobante_entry', 'fvg_impulsive_rsi'];
const METHODS = ['stripe', 'paypal', 'crypto'];

function events(): EventInput[] {
  const random = seededRandom(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const out: EventInput[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const userId = 1 + Math.floor(random() * USERS);
    const at = new Date(NOW - Math.floor(random() * YEAR));
    const r = random();
    if (r < 0.4) out.push({ kind: 'backtest', userId, at, symbol: pick(SYMBOLS), timeframe: pick(TIMEFRAMES), strategy: pick(STRATEGIES), durationMs: Math.floor(random() * 8000), credits: -2 });
    else if (r < 0.6) out.push({ kind: 'active', userId, at, reference: `active:${i}` });
    else if (r < 0.7) out.push({ kind: 'purchase', userId, at, method: pick(METHODS), amountCents: pick([500, 1000, 2000, 5000]), credits: pick([5, 12, 25, 75]) });
    else if (r < 0.8) out.push({ kind: 'credits_spent', userId, at, method: 'csvDownload', credits: -1 });
    else if (r < 0.88) out.push({ kind: 'login', userId, at, method: 'password' });
    else if (r < 0.95) out.push({ kind: 'credits_offered', userId, at, method: pick(['verification', 'admin', 'bonus']), credits: 2 });
    else if (r < 0.98) out.push({ kind: 'signup', userId, at });
    else out.push({ kind: 'failed_payment', userId, at, method: pick(METHODS), category: pick(['payment_failed', 'expired', 'amount_mismatch']), amountCents: 1000 });
  }
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const runs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

async function measure(db: Database, label: string) {
  const clock = new ManualClock(NOW);
  const log = new EventLog(db, clock);
  const all = events();
  const t0 = performance.now();
  for (let i = 0; i < all.length; i += 2000) await log.recordMany(all.slice(i, i + 2000));
  const insertMs = performance.now() - t0;
  const stats = new Statistics(db, clock);
  const rows: { name: string; month: number; all: number }[] = [];
  const month = parseRange({ range: 'month' }, clock.now());
  const everything = parseRange({ range: 'all' }, clock.now());
  rows.push({ name: 'overview (10 KPIs)', month: await time(() => stats.overview(month)), all: await time(() => stats.overview(everything)) });
  for (const kind of BREAKDOWN_KINDS) {
    rows.push({ name: `breakdown ${kind}`, month: await time(() => stats.breakdowns.compute(kind, month)), all: await time(() => stats.breakdowns.compute(kind, everything)) });
  }
  const page = { limit: 100, offset: 0 };
  rows.push({ name: 'details total_sales_eur (100 rows)', month: await time(() => stats.details('total_sales_eur', month, page)), all: await time(() => stats.details('total_sales_eur', everything, page)) });
  return { label, insertMs, rows };
}

async function main() {
  const startLoad = loadavg()[0];
  const results: Awaited<ReturnType<typeof measure>>[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bt-bench-admin-'));
  try {
    const sqlite = await openDatabase(`sqlite:${join(dir, 'bt.sqlite')}`, { dataDir: dir });
    await migrate(sqlite.sequelize);
    results.push(await measure(sqlite, 'SQLite'));
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    const target = await createTestDatabaseUrl('mysql');
    const mysql = await openDatabase(target.url, { dataDir: tmpdir() });
    try {
      await migrate(mysql.sequelize);
      results.push(await measure(mysql, 'MariaDB'));
    } finally {
      await mysql.close();
      await target.drop();
    }
  } catch (err) {
    console.error(`MariaDB skipped: ${(err as Error).message}`);
  }
  const endLoad = loadavg()[0];
  const f = (ms: number) => (ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));
  const header = `| call | ${results.map((r) => `${r.label} month (ms) | ${r.label} all (ms)`).join(' | ')} |`;
  const rule = `|---|${results.map(() => '---:|---:').join('|')}|`;
  const lines = results[0].rows.map((row, i) => `| ${row.name} | ${results.map((r) => `${f(r.rows[i].month)} | ${f(r.rows[i].all)}`).join(' | ')} |`);
  const body = `## Admin statistics over the event log

${EVENTS.toLocaleString('en')} events over a year from ${USERS.toLocaleString('en')} users (40 % backtests, 20 % daily activity, 10 % purchases,
the rest credits, logins, sign-ups and failed payments; core's seeded generator), recorded through the EventLog in batches of 2,000.
Each figure: the median of ${ROUNDS} calls of the Statistics service after one warm-up, for the \`month\` range (30 days, about 1/12 of the
events) and \`all\`. Every breakdown is one aggregate query in the database on the stored UTC day/hour/weekday columns.
${cpus()[0]?.model.trim() ?? 'CPU'} (${cpus().length} cores shared with other work; 1-minute load average ${startLoad.toFixed(1)} at the start, ${endLoad.toFixed(1)} at the end),
${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.
\`npm run bench -w @bt/server\` (packages/server/bench/admin-metrics.bench.ts) rewrites this section.

Recording: ${results.map((r) => `${r.label} ${Math.round(r.insertMs / 1000)} s (${Math.round(EVENTS / (r.insertMs / 1000)).toLocaleString('en')} events/s)`).join(', ')}.

${header}
${rule}
${lines.join('\n')}

Target: the overview and every breakdown of a month under 500 ms on 250,000 events — ${results.every((r) => r.rows.every((row) => row.month < 500)) ? '**met**' : '**not met**'}.`;
  console.log(body);
  console.log(`\nwritten to ${writeSection(SECTION, body)}`);
}

await main();
