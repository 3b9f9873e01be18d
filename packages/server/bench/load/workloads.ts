// What the load test's clients do, as autocannon request sequences. Each connection plays its
// sequence in a loop; a request's kind, status, latency and Server-Timing phases are recorded.
import type autocannon from 'autocannon';
import { STRATEGY_KEYS } from '@bt/core/catalogue';
import type { LoadUser } from './target.js';

export type Workload = 'backtest' | 'mixed';

export { OFFICIAL_RUN } from '../../test/support/official-run.js';
import { OFFICIAL_RUN } from '../../test/support/official-run.js';

/** One answer seen by a client. */
export interface Sample {
  kind: string;
  status: number;
  latencyMs: number;
  /** Server-Timing phases (ms), when the answer has the header. */
  phases: Record<string, number> | null;
}

/** Collects what the requests of one scenario answered. */
export class Recorder {
  readonly samples: Sample[] = [];
  readonly problems: string[] = [];
  private pending: Omit<Sample, 'latencyMs'> | null = null;

  /** Called from a request's onResponse; autocannon emits the response's latency right after. */
  answered(kind: string, status: number, headers: Record<string, unknown>, body: string): void {
    const timing = headers['server-timing'] ?? headers['Server-Timing'];
    this.pending = { kind, status, phases: typeof timing === 'string' ? parseServerTiming(timing) : null };
    if ((status < 200 || status >= 300) && this.problems.length < 5) this.problems.push(`${kind}: ${status} ${body.slice(0, 200)}`);
  }

  /** The tracker's 'response' event (same tick as `answered`). */
  latency(ms: number): void {
    if (!this.pending) return;
    this.samples.push({ ...this.pending, latencyMs: ms });
    this.pending = null;
  }
}

export function parseServerTiming(header: string): Record<string, number> {
  const phases: Record<string, number> = {};
  for (const part of header.split(',')) {
    const match = /^\s*([\w-]+)\s*;\s*dur=([\d.]+)/.exec(part);
    if (match) phases[match[1]] = Number(match[2]);
  }
  return phases;
}

type Context = { user?: LoadUser; folder?: string; file?: string };

const json = { 'content-type': 'application/json' };

/**
 * `backtest`: every call is the official run (one strategy), accounts taken in turn.
 * `mixed`: a visit, looped: the public pages' API (health, datasets, top strategies), the user's
 * list of backtests, a backtest (the 24 official strategies in turn), the workbook it wrote, and
 * one login every `loginEvery` visits (a session lasts many visits).
 */
export function requestsFor(workload: Workload, users: LoadUser[], recorder: Recorder, options: { loginEvery: number; password: string }): autocannon.Request[] {
  let visit = 0;
  const nextUser = () => users[visit++ % users.length];
  const on = (kind: string) => (status: number, body: string, _context: object, headers: Record<string, unknown> | undefined) =>
    recorder.answered(kind, status, headers ?? {}, body);
  const keyed = (req: autocannon.Request, user: LoadUser, extra: Record<string, string> = {}) => ({ ...req, headers: { ...req.headers, 'x-api-key': user.key, ...extra } });

  if (workload === 'backtest') {
    const body = JSON.stringify(OFFICIAL_RUN);
    return [
      {
        method: 'POST',
        path: '/api/run_backtest',
        setupRequest: (req) => ({ ...keyed(req, nextUser(), json), body }),
        onResponse: on('run_backtest'),
      },
    ];
  }

  let strategy = 0;
  let logins = 0;
  return [
    {
      // The visit starts: its account is chosen here and kept in the connection's context.
      method: 'GET',
      path: '/api/health',
      setupRequest: (req, context: Context) => {
        context.user = nextUser();
        return req;
      },
      onResponse: on('health'),
    },
    { method: 'GET', path: '/api/datasets', onResponse: on('datasets') },
    { method: 'GET', path: '/api/top-strategy', onResponse: on('top_strategy') },
    { method: 'GET', path: '/api/user/backtests', setupRequest: (req, context: Context) => keyed(req, context.user!), onResponse: on('list_backtests') },
    {
      method: 'POST',
      path: '/api/run_backtest',
      setupRequest: (req, context: Context) => ({
        ...keyed(req, context.user!, json),
        body: JSON.stringify({ ...OFFICIAL_RUN, strategy: STRATEGY_KEYS[strategy++ % STRATEGY_KEYS.length] }),
      }),
      onResponse: (status, body, context: Context, headers) => {
        on('run_backtest')(status, body, context, headers);
        if (status === 200) {
          const answer = JSON.parse(body) as { folder: string };
          context.folder = answer.folder;
        }
      },
    },
    {
      method: 'GET',
      // No backtest answered: the visit ends here (a falsy request restarts the sequence).
      setupRequest: ((req: autocannon.Request, context: Context) =>
        context.folder ? { ...keyed(req, context.user!), path: `/api/download/${encodeURIComponent(context.folder)}.xlsx?folder=${encodeURIComponent(context.folder)}` } : null) as never,
      onResponse: on('download_xlsx'),
    },
    {
      method: 'POST',
      path: '/api/login',
      setupRequest: ((req: autocannon.Request, context: Context) =>
        logins++ % options.loginEvery === 0 ? { ...req, headers: { ...req.headers, ...json }, body: JSON.stringify({ identifier: context.user!.username, password: options.password }) } : null) as never,
      onResponse: on('login'),
    },
  ];
}
