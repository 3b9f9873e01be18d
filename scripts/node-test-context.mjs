// Loaded with `--import` into the suites' test processes (scripts/compiled-suite.mjs, the unit
// suites' npm scripts) before node:test: it gives Node 20's test harness a cheaper way to know
// which test an asynchronous step belongs to (docs/development.md, "The test harness's async
// hook").
//
// The harness finds the test a nested `it`/`describe`/hook belongs to, and the test an uncaught
// error came from, as `testResources.get(executionAsyncId())`, a map it fills with an async hook
// whose `init` maps every async resource to its trigger's test and whose `destroy` removes it.
// A `destroy` hook makes Node track the end of every promise (a weak callback each), and the two
// callbacks run for every promise of every test: about 2 µs per `await`. Here the harness gets a
// hook that does nothing, an `executionAsyncId` that answers the asyncId of the test whose
// function is running (an AsyncLocalStorage entered each time a test's function starts, which
// follows awaits, timers and sockets as the hook did, without a destroy), and each test is entered
// in its map once, by its own `init`, when its function first runs. Everything else in the
// process keeps Node's `createHook` and `executionAsyncId`.
//
// BT_TEST_NODE_ASYNC_HOOK=1 leaves the harness as Node made it, and so does a Node whose harness
// is not written as Node 20's (harnessAsExpected): nothing is replaced then.
import asyncHooks from 'node:async_hooks';

const { AsyncLocalStorage, AsyncResource } = asyncHooks;

/** What was replaced in this process (the tests of this module read it). */
export const harnessContext = { hookReplaced: false, testsEntered: 0 };

/**
 * Whether this Node's harness is the one described above: it takes `createHook` and
 * `executionAsyncId` from the module's exports and looks tests up by `executionAsyncId()`.
 */
function harnessAsExpected() {
  try {
    const source = process.binding('natives')['internal/test_runner/harness'];
    return (
      typeof source === 'string' &&
      /\{\s*createHook,\s*executionAsyncId,?\s*\}\s*=\s*require\('async_hooks'\)/.test(source) &&
      source.includes('testResources.get(executionAsyncId())') &&
      source.includes('destroy(asyncId)')
    );
  } catch {
    return false;
  }
}

async function install() {
  const nodeCreateHook = asyncHooks.createHook;
  const nodeExecutionAsyncId = asyncHooks.executionAsyncId;
  const nodeRunInAsyncScope = AsyncResource.prototype.runInAsyncScope;
  const runningTest = new AsyncLocalStorage();
  const entered = new WeakSet();
  /** The harness's own `init`: it maps a Test resource to itself. */
  let enterTest = null;

  // The harness destructures `createHook` and `executionAsyncId` from the module when it loads,
  // which happens here, before anything else of the process runs: only it keeps these two.
  asyncHooks.executionAsyncId = () => runningTest.getStore() ?? nodeExecutionAsyncId();
  asyncHooks.createHook = (callbacks) => {
    enterTest = callbacks.init;
    harnessContext.hookReplaced = true;
    return { enable: () => undefined, disable: () => undefined };
  };
  try {
    await import('node:test');
  } finally {
    asyncHooks.executionAsyncId = nodeExecutionAsyncId;
    asyncHooks.createHook = nodeCreateHook;
  }

  // A test's, suite's or hook's function runs through its resource's runInAsyncScope. The first
  // time, the test is entered in the harness's map and the store is set on the resource itself
  // (`enterWith` inside its scope), so that every later step of its function finds it.
  const enterRunningTest = (asyncId) => runningTest.enterWith(asyncId);
  AsyncResource.prototype.runInAsyncScope = function runInAsyncScope(fn, thisArg, ...args) {
    if (enterTest !== null && !entered.has(this) && typeof this.createSubtest === 'function') {
      entered.add(this);
      harnessContext.testsEntered++;
      const asyncId = this.asyncId();
      enterTest(asyncId, 'bt-test', this.triggerAsyncId(), this);
      nodeRunInAsyncScope.call(this, enterRunningTest, null, asyncId);
    }
    return nodeRunInAsyncScope.call(this, fn, thisArg, ...args);
  };
}

if (process.env.BT_TEST_NODE_ASYNC_HOOK !== '1' && !process.moduleLoadList.some((name) => name.endsWith('internal/test_runner/harness')) && harnessAsExpected()) {
  await install();
}
