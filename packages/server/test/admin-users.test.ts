import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, makeAdmin } from './support/work.js';

const t = useTestApp();

describe(`admin users and history (${TEST_DIALECT})`, () => {
  it('lists live accounts with the console fields, newest first, with search and paging', async () => {
    const admin = await makeAdmin(t);
    const a = await register(t);
    const b = await register(t);
    await t.app.services.ledger.grant(b.id, 4, 'admin');
    const res = await t.request('GET', '/api/admin/get_users', { key: admin.key });
    assert.equal(res.status, 200, res.text);
    const mine = res.body.users.filter((u: { id: number }) => [a.id, b.id].includes(u.id));
    assert.deepEqual(mine.map((u: { id: number }) => u.id), [b.id, a.id]);
    const shown = mine[0];
    assert.deepEqual(
      { id: shown.id, email: shown.email, username: shown.username, plan: shown.plan, credits: shown.credits, is_blocked: shown.is_blocked, role: shown.role },
      { id: b.id, email: b.email, username: b.username, plan: 'free', credits: 4, is_blocked: false, role: 'user' },
    );
    assert.ok(res.body.total >= 3);
    const found = await t.request('GET', `/api/admin/get_users?q=${encodeURIComponent(a.username.toUpperCase())}`, { key: admin.key });
    assert.deepEqual(found.body.users.map((u: { id: number }) => u.id), [a.id]);
    const page = await t.request('GET', '/api/admin/get_users?limit=1&offset=1', { key: admin.key });
    assert.equal(page.body.users.length, 1);
    for (const query of ['limit=0', 'limit=99999', 'offset=-1', 'limit=abc', 'limit=1&limit=2']) {
      const bad = await t.request('GET', `/api/admin/get_users?${query}`, { key: admin.key });
      assert.equal(bad.status, 400, query);
      assert.match(bad.body.detail, /Pagination invalide|une seule valeur/, query);
    }
  });

  it('flags a user whose username is now reserved (taken before the rule), never the admin (docs/admin.md#the-admin-account)', async () => {
    const admin = await makeAdmin(t);
    const plain = await register(t);
    const now = new Date();
    // Registered before the rule: registration refuses these names now.
    // An admin holds a reserved name by right (ADMIN_USERNAME).
    await t.db.models.User.update({ username: 'administrator' }, { where: { id: admin.id } });
    const early = await t.db.models.User.create({ email: `early-${process.pid}@example.com`, username: 'supp0rt', firstName: 'S', lastName: 'P', passwordHash: null, role: 'user', plan: 'free', credits: 0, emailVerified: true, createdAt: now, updatedAt: now });
    const res = await t.request('GET', '/api/admin/get_users?limit=5000', { key: admin.key });
    const flag = (id: number) => res.body.users.find((u: { id: number }) => u.id === id)?.reserved_username;
    assert.deepEqual([flag(early.id), flag(plain.id), flag(admin.id)], [true, false, false]);
    const history = await t.request('GET', `/api/admin/user_history/${early.id}`, { key: admin.key });
    assert.equal(history.body.user.reserved_username, true);
    // Nothing else changes for them: they keep their name and sign in as before.
    assert.equal((await t.db.models.User.findByPk(early.id))?.username, 'supp0rt');
  });

  it('adds and removes credits through the ledger, never below zero', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const add = await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: user.id, amount: 3 } });
    assert.deepEqual([add.status, add.body.credits, add.body.detail], [200, 3, '3 crédit(s) ajouté(s).']);
    const one = await t.request('POST', '/api/admin/remove_credit', { key: admin.key, json: { user_id: user.id } });
    assert.deepEqual([one.status, one.body.credits, one.body.detail], [200, 2, '1 crédit(s) retiré(s).']);
    const tooMany = await t.request('POST', '/api/admin/remove_credit', { key: admin.key, json: { user_id: user.id, amount: 5 } });
    assert.equal(tooMany.status, 409);
    assert.equal(tooMany.body.detail, 'Impossible de retirer 5 crédit(s) : le solde est de 2 (il ne descend jamais sous zéro).');
    assert.equal(await balance(t, user.id), 2);
    const rows = await t.db.models.CreditEntry.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] });
    assert.deepEqual(rows.map((r) => [r.kind, r.reason, r.amount, r.balanceAfter]), [['grant', 'admin', 3, 3], ['spend', 'admin', -1, 2]]);
    for (const [body, status, detail] of [
      [{}, 400, 'Utilisateur manquant (user_id).'],
      [{ user_id: 'abc' }, 400, 'Utilisateur manquant (user_id).'],
      [{ user_id: -4 }, 400, 'Utilisateur manquant (user_id).'],
      [{ user_id: user.id, amount: 0 }, 400, 'Montant invalide (un entier de 1 à 1000).'],
      [{ user_id: user.id, amount: 1.5 }, 400, 'Montant invalide (un entier de 1 à 1000).'],
      [{ user_id: user.id, amount: 1e308 }, 400, 'Montant invalide (un entier de 1 à 1000).'],
      [{ user_id: user.id, amount: [1] }, 400, 'Champ « amount » : une seule valeur attendue (pas une liste ni un objet).'],
      [{ user_id: 999999 }, 404, 'Utilisateur introuvable.'],
    ] as const) {
      for (const route of ['add_credit', 'remove_credit']) {
        const res = await t.request('POST', `/api/admin/${route}`, { key: admin.key, json: body });
        assert.deepEqual([res.status, res.body.detail], [status, detail], `${route} ${JSON.stringify(body)}`);
      }
    }
    assert.equal(await balance(t, user.id), 2);
  });

  it('deletes a user as an archive: keys revoked, address freed, ledger kept; never itself or another admin', async () => {
    const admin = await makeAdmin(t);
    const other = await makeAdmin(t);
    const user = await register(t);
    await t.app.services.ledger.grant(user.id, 2, 'admin');
    const res = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: user.id } });
    assert.deepEqual([res.status, res.body.detail], [200, 'Utilisateur supprimé (compte archivé, sessions révoquées).']);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 401, 'the key is revoked');
    const row = await t.db.models.User.findByPk(user.id);
    assert.ok(row?.deletedAt);
    assert.equal(row?.email, null);
    assert.equal(row?.deletedEmail, user.email);
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id } }), 1);
    const listed = await t.request('GET', '/api/admin/get_users?limit=5000', { key: admin.key });
    assert.ok(!listed.body.users.some((u: { id: number }) => u.id === user.id));
    const again = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: user.id } });
    assert.deepEqual([again.status, again.body.detail], [404, 'Utilisateur introuvable.']);
    const self = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: admin.id } });
    assert.deepEqual([self.status, self.body.detail], [400, 'Tu ne peux pas supprimer ton propre compte depuis la console.']);
    const peer = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: { user_id: other.id } });
    assert.deepEqual([peer.status, peer.body.detail], [400, 'Un compte administrateur ne se supprime pas depuis la console.']);
    const missing = await t.request('POST', '/api/admin/delete_user', { key: admin.key, json: {} });
    assert.equal(missing.status, 400);
    const deletion = await t.db.models.AppEvent.findOne({ where: { kind: 'deletion', userId: user.id } });
    assert.equal(deletion?.method, 'admin');
  });

  it("shows a user's history and the global history; the reset hides purchases, never the ledger or the balances", async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    await t.app.services.ledger.grant(user.id, 12, 'purchase', { reference: `stripe:pi_${user.id}`, meta: { offer_id: 'CREDIT_10', amount_eur: 10, method: 'stripe', payment: `pay_${user.id}` } });
    await t.app.services.ledger.spend(user.id, 'backtest', { reference: `run-${user.id}` });
    await t.app.services.ledger.grant(user.id, 1, 'admin');

    const history = await t.request('GET', `/api/admin/user_history/${user.id}`, { key: admin.key });
    assert.equal(history.status, 200, history.text);
    assert.equal(history.body.user.id, user.id);
    assert.deepEqual(
      history.body.history.map((h: Record<string, unknown>) => [h.type, h.label, h.method, h.price_paid, h.credits_delta]),
      [
        ['admin', 'Ajustement par un administrateur', 'admin', null, 1],
        ['backtest', 'Backtest', 'crédits', null, -2],
        ['purchase', 'Pack 12 crédits', 'stripe', 10, 12],
      ],
    );
    for (const date of history.body.history.map((h: { date: string }) => h.date)) assert.ok(!Number.isNaN(Date.parse(date)));

    const global = await t.request('GET', '/api/admin/global_history?limit=3', { key: admin.key });
    assert.equal(global.status, 200);
    assert.deepEqual(
      global.body.items.map((h: Record<string, unknown>) => [h.username, h.type, h.price_eur, h.credits_delta, h.method]),
      [
        [user.username, 'admin', null, 1, 'admin'],
        [user.username, 'backtest', null, -2, 'crédits'],
        [user.username, 'purchase', 10, 12, 'stripe'],
      ],
    );

    for (const [body, status] of [[{ scope: 'user' }, 400], [{ scope: ['all'] }, 400]] as const) {
      const bad = await t.request('POST', '/api/admin/history/reset', { key: admin.key, json: body });
      assert.equal(bad.status, status, JSON.stringify(body));
    }
    const reset = await t.request('POST', '/api/admin/history/reset', { key: admin.key, json: { scope: 'all' } });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.detail, "Historique d'achats réinitialisé pour tous les utilisateurs (abonnements et crédits inchangés).");
    assert.ok(reset.body.hidden >= 3);
    assert.equal((await t.request('GET', '/api/admin/global_history', { key: admin.key })).body.total, 0);
    assert.equal((await t.request('GET', `/api/admin/user_history/${user.id}`, { key: admin.key })).body.history.length, 0);
    assert.equal(await balance(t, user.id), 11, 'credits untouched');
    assert.equal(await t.db.models.CreditEntry.count({ where: { userId: user.id } }), 3, 'the ledger keeps every row');
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.purchase_history.length, 3, "the user's own history is theirs");

    await t.app.services.ledger.grant(user.id, 2, 'admin');
    const after = await t.request('GET', '/api/admin/global_history', { key: admin.key });
    assert.deepEqual(after.body.items.map((h: { credits_delta: number }) => h.credits_delta), [2], 'new rows show after a reset');

    for (const path of ['/api/admin/user_history/abc', '/api/admin/user_history/0', '/api/admin/user_history/1.5']) {
      assert.equal((await t.request('GET', path, { key: admin.key })).status, 400, path);
    }
    assert.equal((await t.request('GET', '/api/admin/user_history/999999', { key: admin.key })).status, 404);
  });
});
