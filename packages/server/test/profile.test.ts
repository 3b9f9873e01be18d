import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECREATE_ACCOUNT_LIMIT, SIGNUP_CREDITS } from '@bt/core/catalogue';
import { newPerson, register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

// The e-mail change flow verifies through the on-screen link and expects the sign-up credits.
const t = useTestApp({ config: { screenVerification: 'credits' } });

async function verify(key: string) {
  const res = await t.request('POST', '/api/auth/resend-verification', { key });
  await fetch(res.body.verifyUrl, { redirect: 'manual' });
}

describe(`POST /api/profile/update (${TEST_DIALECT})`, () => {
  it('changes the full name from a multipart form, as the profile page sends it', async () => {
    const user = await register(t);
    const form = new FormData();
    form.set('full_name', '  Jeanne   Marie Dupont ');
    form.set('email', user.email);
    form.set('password', '');
    const res = await t.request('POST', '/api/profile/update', { form, key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.message, 'Profil mis à jour.');
    assert.equal(res.body.user.first_name, 'Jeanne');
    assert.equal(res.body.user.last_name, 'Marie Dupont');
    assert.equal(res.body.user.name, 'Jeanne Marie Dupont');
  });

  it('changes the e-mail with the current password; the new address must be verified again, without new credits', async () => {
    const user = await register(t);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.signup_credits_pending, true, 'a new account gets its credits with the verification');
    await verify(user.key);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.signup_credits_pending, false);
    const other = newPerson();
    const noPassword = await t.request('POST', '/api/profile/update', { json: { email: other.email }, key: user.key });
    assert.equal(noPassword.status, 400);
    assert.deepEqual(noPassword.body, { detail: 'Mot de passe actuel obligatoire.' });
    const wrong = await t.request('POST', '/api/profile/update', { json: { email: other.email, password: 'mauvais-123' }, key: user.key });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { detail: 'Mot de passe actuel incorrect.' });
    const invalid = await t.request('POST', '/api/profile/update', { json: { email: 'pas une adresse', password: user.password }, key: user.key });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body, { detail: 'Adresse e-mail invalide.' });
    const taken = await register(t);
    const conflict = await t.request('POST', '/api/profile/update', { json: { email: taken.email, password: user.password }, key: user.key });
    assert.equal(conflict.status, 409);
    assert.deepEqual(conflict.body, { detail: 'Un compte existe déjà avec cette adresse e-mail.' });

    const ok = await t.request('POST', '/api/profile/update', { json: { email: other.email.toUpperCase(), password: user.password }, key: user.key });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.user.email, other.email);
    assert.equal(ok.body.user.email_verified, false);
    assert.equal(ok.body.user.signup_credits_pending, false, 'the profile must not promise the credits again');
    assert.equal(ok.body.emailed, false);
    const follow = await fetch(ok.body.verifyUrl, { redirect: 'manual' });
    assert.equal(follow.headers.get('location'), 'http://web.bt.test/profile?verified=1&credits=already', 'the profile page must not announce credits again');
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.email_verified, true);
    assert.equal(me.body.credits, SIGNUP_CREDITS, 'the sign-up credits are granted once per account');
    const login = await t.request('POST', '/api/login', { json: { identifier: other.email, password: user.password } });
    assert.equal(login.status, 200);
  });

  it('refuses an empty update and an anonymous one', async () => {
    const user = await register(t);
    const empty = await t.request('POST', '/api/profile/update', { json: {}, key: user.key });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, { detail: 'Aucune modification demandée.' });
    const anonymous = await t.request('POST', '/api/profile/update', { json: { full_name: 'X Y' } });
    assert.equal(anonymous.status, 401);
  });
});

describe(`POST /api/profile/set-password (${TEST_DIALECT})`, () => {
  it('checks the current password, keeps this session and ends the others', async () => {
    const user = await register(t);
    const otherSession = (await t.request('POST', '/api/login', { json: { identifier: user.username, password: user.password } })).body.token;
    const missing = await t.request('POST', '/api/profile/set-password', { json: { new_password: 'nouveau-123' }, key: user.key });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { detail: 'Mot de passe actuel obligatoire.' });
    const wrong = await t.request('POST', '/api/profile/set-password', { json: { current_password: 'faux-faux', new_password: 'nouveau-123' }, key: user.key });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { detail: 'Mot de passe actuel incorrect.' });
    const short = await t.request('POST', '/api/profile/set-password', { json: { current_password: user.password, new_password: 'court' }, key: user.key });
    assert.equal(short.status, 400);
    assert.deepEqual(short.body, { detail: '8 caractères minimum.' });
    const noNew = await t.request('POST', '/api/profile/set-password', { json: { current_password: user.password }, key: user.key });
    assert.equal(noNew.status, 400);
    assert.deepEqual(noNew.body, { detail: 'Nouveau mot de passe obligatoire.' });

    const ok = await t.request('POST', '/api/profile/set-password', { json: { current_password: user.password, new_password: 'nouveau-123' }, key: user.key });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { status: 'success', message: 'Mot de passe modifié.' });
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 200);
    assert.equal((await t.request('GET', '/api/me', { key: otherSession })).status, 401);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: user.email, password: 'nouveau-123' } })).status, 200);
  });
});

describe(`POST /api/profile/unsubscribe (${TEST_DIALECT})`, () => {
  it('refuses a free account and stops the renewal of a subscription', async () => {
    const user = await register(t);
    const free = await t.request('POST', '/api/profile/unsubscribe', { key: user.key });
    assert.equal(free.status, 400);
    assert.deepEqual(free.body, { detail: 'Aucun abonnement actif.' });

    const renew = new Date(t.clock.now().getTime() + 20 * 86400_000);
    await t.db.models.User.update({ plan: 'SUB_9', subscriptionRenewDate: renew, subscriptionAutoRenew: true }, { where: { id: user.id } });
    const before = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(before.body.plan, 'SUB_9');
    assert.equal(before.body.has_discount, true);
    assert.equal(before.body.subscription.auto_renew, true);
    assert.equal(new Date(before.body.subscription.renew_date).getTime(), Math.floor(renew.getTime() / 1000) * 1000);

    const res = await t.request('POST', '/api/profile/unsubscribe', { key: user.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.match(res.body.message, /^Abonnement résilié : il reste actif jusqu’au \d\d\/\d\d\/\d{4}, sans renouvellement\.$/);
    const after = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(after.body.plan, 'SUB_9', 'the plan runs until its renewal date');
    assert.equal(after.body.subscription.auto_renew, false);
    t.clock.advance(21 * 86400_000);
    const lapsed = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(lapsed.body.plan, 'free');
    assert.equal(lapsed.body.has_discount, false);
  });
});

describe(`POST /api/user/delete_account (${TEST_DIALECT})`, () => {
  it('asks for the current password (a stolen key alone deleted the account): missing or wrong, 400 and nothing deleted', async () => {
    const user = await register(t);
    const none = await t.request('POST', '/api/user/delete_account', { key: user.key });
    assert.deepEqual([none.status, none.body], [400, { detail: 'Mot de passe actuel obligatoire pour supprimer ton compte.' }]);
    const empty = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: '' } });
    assert.deepEqual([empty.status, empty.body], [400, { detail: 'Mot de passe actuel obligatoire pour supprimer ton compte.' }]);
    const wrong = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: `${user.password} ` } });
    assert.deepEqual([wrong.status, wrong.body], [400, { detail: 'Mot de passe actuel incorrect.' }], 'never trimmed');
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.status, 200, 'the key still works: nothing was deleted');
    assert.equal((await t.db.models.User.findByPk(user.id))?.deletedAt, null);
    const right = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.deepEqual([right.status, right.body], [200, { status: 'success', message: 'Compte supprimé.' }]);
    assert.ok((await t.db.models.User.findByPk(user.id))?.deletedAt);
  });

  it('ends the sessions, frees the address and keeps an archived row', async () => {
    const user = await register(t);
    const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'success', message: 'Compte supprimé.' });
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 401);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: user.email, password: user.password } })).status, 401);
    const row = await t.db.models.User.findByPk(user.id);
    assert.ok(row?.deletedAt);
    assert.equal(row?.email, null);
    assert.equal(row?.deletedEmail, user.email);
    assert.equal(row?.passwordHash, null);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: user.id } }), 0);
  });

  it(`lets an address be re-created ${RECREATE_ACCOUNT_LIMIT} times, then refuses with the spec's message`, async () => {
    const person = newPerson('recreate');
    let current = await register(t, person);
    for (let i = 0; i < RECREATE_ACCOUNT_LIMIT; i++) {
      assert.equal((await t.request('POST', '/api/user/delete_account', { key: current.key, json: { current_password: current.password } })).status, 200);
      current = await register(t, { ...person });
    }
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: current.key, json: { current_password: current.password } })).status, 200);
    const refused = await t.request('POST', '/api/register', { json: person });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, {
      detail: 'Tu as déjà recréé un compte 3 fois avec cette adresse. Connecte-toi avec ton compte existant ou utilise un autre e-mail.',
    });
    const counts = await t.db.models.EmailRecreation.findByPk(person.email);
    assert.equal(counts?.deletions, RECREATE_ACCOUNT_LIMIT + 1);
    assert.equal(counts?.recreations, RECREATE_ACCOUNT_LIMIT);
  });

  it('a double click deletes once: one deletion counted toward the re-creation limit, one event, never a 500', async () => {
    const user = await register(t, newPerson('twice'));
    const answers = await Promise.all([1, 2, 3].map(() => t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })));
    // A click whose request is read once the first deletion has committed finds its key gone: a
    // 401 with the key's sentence, as any request after a deletion (which of them does depends on
    // the database's timing). Each is a 200 or that 401, at least one deletes, none is a 500.
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.includes(200), answers.map((a) => a.text).join('\n'));
    for (const answer of answers) {
      if (answer.status === 200) assert.equal(answer.body.message, 'Compte supprimé.');
      else assert.deepEqual([answer.status, answer.body.detail], [401, 'Clé API invalide ou expirée.'], answer.text);
    }
    const counts = await t.db.models.EmailRecreation.findByPk(user.email);
    assert.equal(counts?.deletions, 1);
    assert.equal(await t.db.models.AppEvent.count({ where: { kind: 'deletion', userId: user.id } }), 1);
    assert.equal((await t.db.models.User.findByPk(user.id))?.deletedEmail, user.email);
  });

  it('an address past its re-creation limit cannot be taken by changing another account’s e-mail either', async () => {
    // Before the fix: one mailbox farmed the sign-up credits without end. Register with any
    // address, change it to the blocked one, verify (credits), delete, again.
    const person = newPerson('farm');
    let current = await register(t, person);
    for (let i = 0; i < RECREATE_ACCOUNT_LIMIT; i++) {
      assert.equal((await t.request('POST', '/api/user/delete_account', { key: current.key, json: { current_password: current.password } })).status, 200);
      current = await register(t, { ...person });
    }
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: current.key, json: { current_password: current.password } })).status, 200);
    assert.equal((await t.request('POST', '/api/register', { json: person })).status, 409);

    const other = await register(t, newPerson('farm-other'));
    for (const spelling of [person.email, person.email.toUpperCase(), `  ${person.email} `]) {
      const refused = await t.request('POST', '/api/profile/update', { json: { email: spelling, password: other.password }, key: other.key });
      assert.equal(refused.status, 409, refused.text);
      assert.deepEqual(refused.body, {
        detail: 'Tu as déjà recréé un compte 3 fois avec cette adresse. Connecte-toi avec ton compte existant ou utilise un autre e-mail.',
      });
    }
    const me = await t.request('GET', '/api/me', { key: other.key });
    assert.deepEqual([me.body.email, me.body.credits], [other.email, 0]);
    const counts = await t.db.models.EmailRecreation.findByPk(person.email);
    assert.deepEqual([counts?.deletions, counts?.recreations], [RECREATE_ACCOUNT_LIMIT + 1, RECREATE_ACCOUNT_LIMIT]);
  });

  it('taking, by an e-mail change, an address whose account was deleted counts as one of its re-creations', async () => {
    const person = newPerson('moved');
    const first = await register(t, person);
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: first.key, json: { current_password: first.password } })).status, 200);
    const other = await register(t, newPerson('moved-other'));
    const moved = await t.request('POST', '/api/profile/update', { json: { email: person.email, password: other.password }, key: other.key });
    assert.equal(moved.status, 200, moved.text);
    const counts = await t.db.models.EmailRecreation.findByPk(person.email);
    assert.deepEqual([counts?.deletions, counts?.recreations], [1, 1]);
    // An address no account ever had is no re-creation.
    const fresh = newPerson('moved-fresh');
    assert.equal((await t.request('POST', '/api/profile/update', { json: { email: fresh.email, password: other.password }, key: other.key })).status, 200);
    assert.equal(await t.db.models.EmailRecreation.findByPk(fresh.email), null);
  });

  it('address changes sent with the deletion never land on the archived row (it held the new address: taken for good)', async () => {
    // Before the fix each of these ended with the deleted account holding one of the new
    // addresses: registering it answered 'Un compte existe déjà' forever, so anyone could lock
    // any address out by changing to it while deleting their account.
    for (let round = 0; round < 4; round++) {
      const user = await register(t, newPerson('race'));
      const wanted = Array.from({ length: 3 }, () => newPerson('race-to'));
      const updates = wanted.map((p) => t.request('POST', '/api/profile/update', { key: user.key, json: { email: p.email, password: user.password } }));
      await new Promise((resolve) => setTimeout(resolve, 3 * round));
      const answers = await Promise.all([...updates, t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })]);
      for (const answer of answers) {
        if (answer.status !== 200) assert.deepEqual([answer.status, answer.body.detail], [401, 'Clé API invalide ou expirée.'], answer.text);
      }
      const row = await t.db.models.User.findByPk(user.id);
      assert.ok(row?.deletedAt);
      assert.equal(row?.email, null, 'the archived row holds no address');
      for (const p of wanted) assert.equal((await t.request('POST', '/api/register', { json: p })).status, 201, p.email);
    }
  });

  it('needs a key', async () => {
    const res = await t.request('POST', '/api/user/delete_account');
    assert.equal(res.status, 401);
  });
});
