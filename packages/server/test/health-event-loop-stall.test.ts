// Health and readiness on a process held by something else than the database (docs/deployment.md,
// "Health and readiness"): a CPU-starved machine, a long garbage collection. The database check's
// 2-second bound was a timer raced against the query: after a stall longer than the bound, the
// timer's callback ran before the query's answer (timers come first in the event loop's turn),
// and a database that had answered in time was reported unreachable (503, and a load balancer
// takes the server out). test/security-uploads.test.ts failed that way beside other test files on
// two cores. The stall is made here by holding the event loop, on a real database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

const t = useTestApp();

/** Holds the event loop for `ms`, as a starved or collecting process is held. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else runs on this thread meanwhile
  }
}

/**
 * Makes the app's next database queries hold the event loop for `ms`, after the caller has armed
 * its timer: once the query is sent (`after`), or before it is (`before`).
 */
async function withStall<T>(when: 'after' | 'before', ms: number, fn: () => Promise<T>): Promise<T> {
  const sequelize = t.db.sequelize;
  const query = sequelize.query.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  const original = sequelize.query;
  (sequelize as { query: unknown }).query = (...args: unknown[]) => {
    if (when === 'after') {
      const sent = query(...args);
      process.nextTick(() => hold(ms));
      return sent;
    }
    return new Promise((resolve) => process.nextTick(() => (hold(ms), resolve(query(...args)))));
  };
  try {
    return await fn();
  } finally {
    sequelize.query = original;
  }
}

describe(`health while the event loop is held past the database check's bound (${TEST_DIALECT})`, () => {
  for (const when of ['after', 'before'] as const) {
    it(`a database that answers is reported up when the process was held ${when} the query was sent`, async () => {
      for (const path of ['/api/health', '/api/ready']) {
        const res = await withStall(when, 2600, () => t.request('GET', path));
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assert.ok(!t.logs.some((l) => /unreachable|unavailable/.test(l)), t.logs.join('\n'));
      }
    });
  }
});
