/**
 * The web app in Chromium against the real bt server (SQLite, fixtures seeded, no SMTP) serving
 * the built app on the same origin: no mocked answer anywhere. One server and one browser for
 * the run; each flow (e2e/flows/) opens its own contexts. Run:
 * `npm run build -w @bt/web && npm run e2e -w @bt/web`; screenshots in test-results/web-e2e/
 * (or BT_SCREENSHOTS). The flows run in this order: the backtest flow uses the account the
 * sign-up flow verified (it makes its own when run alone with --test-name-pattern).
 */
import { after, before } from 'node:test';
import { accountFlow } from './flows/account.js';
import { backtestFlow } from './flows/backtest.js';
import { referenceFlow } from './flows/reference.js';
import { visitorFlow } from './flows/visitor.js';
import type { Flow } from './support/flow.js';
import { openHarness } from './support/harness.js';

const flow = { trader: null } as unknown as Flow;

before(async () => {
  flow.h = await openHarness();
});

after(async () => {
  await flow.h?.close();
});

visitorFlow(flow);
accountFlow(flow);
backtestFlow(flow);
referenceFlow(flow);
