import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Analytics, MemorySink, analyticsIdentity, recordingAllowedOn, type AnalyticsSink } from '../src/analytics/analytics.js';

describe('analytics rules (docs/product.md §1.6, §1.7)', () => {
  it('captures a page view per route change, and stops recording on private paths', () => {
    const sink = new MemorySink();
    const analytics = new Analytics(sink, { hostname: 'bt.example' });
    analytics.pageView('/home');
    assert.equal(sink.recording, true);
    analytics.pageView('/login', '?tab=register');
    assert.equal(sink.recording, false);
    analytics.pageView('/backtest');
    assert.equal(sink.recording, true);
    analytics.pageView('/profile');
    assert.equal(sink.recording, false);
    const views = sink.events.filter((e) => e.type === 'capture').map((e) => e.properties?.path);
    assert.deepEqual(views, ['/home', '/login', '/backtest', '/profile']);
    assert.ok(['/login', '/register', '/profile', '/admin', '/admin/x'].every((p) => !recordingAllowedOn(p)));
    assert.ok(recordingAllowedOn('/backtest'));
  });

  it('is off on localhost', () => {
    const sink = new MemorySink();
    const analytics = new Analytics(sink, { hostname: 'localhost' });
    analytics.pageView('/home');
    analytics.identify({ email: 'a@b.fr' });
    assert.equal(analytics.enabled, false);
    assert.equal(sink.events.filter((e) => e.type === 'capture' || e.type === 'identify').length, 0);
  });

  it('opts out internal staff, opts in and identifies everyone else', () => {
    const sink = new MemorySink();
    const analytics = new Analytics(sink, { hostname: 'bt.example', excludedEmails: ['staff@bt.example'], internalDomains: ['@corp.example'] });
    analytics.identify({ email: 'Staff@bt.example' });
    assert.equal(sink.optedOut, true);
    analytics.pageView('/home');
    assert.equal(sink.events.filter((e) => e.type === 'capture').length, 0);
    analytics.identify({ email: 'someone@corp.example' });
    assert.equal(sink.optedOut, true);
    analytics.identify({ id: 42, email: 'ana@x.fr', username: 'ana', credits: 6 });
    assert.equal(sink.optedOut, false);
    const identify = sink.events.find((e) => e.type === 'identify');
    assert.deepEqual(identify, { type: 'identify', name: '42', properties: { email: 'ana@x.fr', username: 'ana', role: 'user', plan: 'free', credits: 6 } });
  });

  it('identity: id, else e-mail, else anonymous; role user and plan free by default', () => {
    assert.equal(analyticsIdentity({ user_id: 7 }).distinctId, '7');
    assert.equal(analyticsIdentity({ mail: 'm@x.fr' }).distinctId, 'm@x.fr');
    assert.equal(analyticsIdentity({}).distinctId, 'anonymous');
    assert.deepEqual([analyticsIdentity({}).role, analyticsIdentity({}).plan, analyticsIdentity({}).credits], ['user', 'free', null]);
  });

  it('swallows sink errors', () => {
    const throwing: AnalyticsSink = {
      capture() {
        throw new Error('x');
      },
      identify() {
        throw new Error('x');
      },
      reset() {
        throw new Error('x');
      },
      optIn() {
        throw new Error('x');
      },
      optOut() {
        throw new Error('x');
      },
      startRecording() {
        throw new Error('x');
      },
      stopRecording() {
        throw new Error('x');
      },
    };
    const analytics = new Analytics(throwing, { hostname: 'bt.example' });
    assert.doesNotThrow(() => {
      analytics.pageView('/home');
      analytics.identify({ email: 'a@b.fr' });
      analytics.capture('purchase_success', {});
      analytics.reset();
    });
  });
});
