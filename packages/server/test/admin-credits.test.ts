import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp();

describe(`POST /api/admin/add_credit (${TEST_DIALECT})`, () => {
  it('an admin adds credits through the ledger; the user sees them in /api/me and its history', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const one = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: user.id } });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.credits, 1, 'the amount defaults to 1');
    const five = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: user.id, amount: 5 } });
    assert.equal(five.body.credits, 6);
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.credits, 6);
    assert.deepEqual(me.body.purchase_history.slice(0, 2).map((e: { type: string; credits: number }) => [e.type, e.credits]), [['admin', 5], ['admin', 1]]);
  });

  it('refuses non-admins, bad bodies and unknown users', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const denied = await t.request('POST', '/api/admin/add_credit', { key: user.key, json: { user_id: user.id, amount: 10 } });
    assert.equal(denied.status, 403);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.credits, 0);
    const bad = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: user.id, amount: -3 } });
    assert.deepEqual([bad.status, bad.body.detail], [400, 'Montant invalide (un entier de 1 à 1000).']);
    const missing = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: {} });
    assert.deepEqual([missing.status, missing.body.detail], [400, 'Utilisateur manquant (user_id).']);
    const unknown = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: 999999 } });
    assert.deepEqual([unknown.status, unknown.body.detail], [404, 'Utilisateur introuvable.']);
  });
});
