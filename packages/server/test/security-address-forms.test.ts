import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isEmail, normalizeEmail } from '../src/auth/rules.js';
import { up as canonicalAddresses } from '../src/db/migrations/0015-users-email-canonical.js';
import { newPerson, register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';

// One mailbox, many spellings (docs/security.md, "One address, one spelling"): letter case,
// NFC/NFD, a full-width domain, a trailing dot or space reach the same mailbox and are the same
// account; a full-width or invisible character in the local part is refused.

let tdb: TestDatabase;
let inbox: Inbox;
let t: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  inbox = await startSmtp();
  t = await startTestApp(tdb.db, { smtpUrl: inbox.url });
});
after(async () => {
  await t.close();
  await inbox.close();
  await tdb.drop();
});

let n = 0;
/** An address with an accent in both parts, written in NFC (é as one code point). */
const accented = () => `josé${process.pid}x${++n}@exemple-café.fr`.normalize('NFC');

/** The same mailbox written otherwise: each must find the account of `nfc`. */
function sameMailbox(nfc: string): Record<string, string> {
  const [local, domain] = nfc.split('@');
  const fullwidth = [...domain].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
  return {
    nfd: nfc.normalize('NFD'),
    upper: nfc.toUpperCase(),
    'upper nfd': nfc.toUpperCase().normalize('NFD'),
    'trailing dot': `${nfc}.`,
    'trailing space': `${nfc} `,
    'ideographic space': `\u3000${nfc}\u3000`,
    'full-width domain': `${local}@${fullwidth}`,
    'full-width dots': `${local}@${domain.replace(/\./g, '\uff0e')}`,
  };
}

/** Look-alikes that must be refused: no mailbox a provider gives reads them as the plain one. */
function refused(nfc: string): Record<string, string> {
  const [local, domain] = nfc.split('@');
  return {
    'full-width local part': `${[...local].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')}@${domain}`,
    'zero-width space': `${local.slice(0, 2)}\u200b${local.slice(2)}@${domain}`,
    'zero-width joiner in the domain': `${local}@${domain.slice(0, 3)}\u200d${domain.slice(3)}`,
    'soft hyphen': `${local.slice(0, 2)}\u00ad${local.slice(2)}@${domain}`,
    'full-width at sign': `${local}\uff20${domain}`,
  };
}

describe(`one address, one spelling (${TEST_DIALECT})`, () => {
  it('the canonical form: NFC, lower case, the domain folded (full-width, trailing dot)', () => {
    const nfc = 'josé@exemple-café.fr';
    for (const [name, form] of Object.entries(sameMailbox(nfc))) assert.equal(normalizeEmail(form), nfc, name);
    for (const [name, form] of Object.entries(refused(nfc))) assert.equal(isEmail(normalizeEmail(form)), false, name);
  });

  it('registration: every other spelling of a taken address is taken; look-alike characters are refused', async () => {
    const email = accented();
    const first = await register(t, { ...newPerson('forms'), email });
    const me = await t.request('GET', '/api/me', { key: first.key });
    assert.equal(me.body.email, email, 'stored as written in NFC');
    for (const [name, form] of Object.entries(sameMailbox(email))) {
      const res = await t.request('POST', '/api/register', { json: { ...newPerson('forms'), email: form } });
      assert.equal(res.status, 409, `${name}: ${res.text}`);
      assert.deepEqual(res.body, { detail: 'Un compte existe déjà avec cette adresse e-mail.' });
    }
    for (const [name, form] of Object.entries(refused(email))) {
      const res = await t.request('POST', '/api/register', { json: { ...newPerson('forms'), email: form } });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.deepEqual(res.body, { detail: 'Adresse e-mail invalide.' });
    }
    assert.equal(await t.db.models.User.count({ where: { lastName: first.last_name } }), 1);
  });

  it('an account registered in NFD is stored in NFC: the NFC spelling finds it', async () => {
    const email = accented();
    const person = { ...newPerson('forms'), email: email.normalize('NFD') };
    const user = await register(t, person);
    const row = await t.db.models.User.findByPk(user.id);
    assert.equal(row!.email, email);
    const login = await t.request('POST', '/api/login', { json: { email, password: person.password } });
    assert.equal(login.status, 200, login.text);
  });

  it('sign-in: every spelling of the address signs into the one account; look-alikes into none', async () => {
    const email = accented();
    const user = await register(t, { ...newPerson('forms'), email });
    for (const [name, form] of Object.entries(sameMailbox(email))) {
      const res = await t.request('POST', '/api/login', { json: { email: form, password: user.password } });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
      const me = await t.request('GET', '/api/me', { key: res.body.token });
      assert.equal(me.body.id, user.id, name);
    }
    for (const [name, form] of Object.entries(refused(email))) {
      const res = await t.request('POST', '/api/login', { json: { email: form, password: user.password } });
      assert.equal(res.status, 401, `${name}: ${res.text}`);
    }
  });

  it('password reset: any spelling mails the link to the stored address only; a look-alike mails nothing', async () => {
    const email = accented();
    await register(t, { ...newPerson('forms'), email });
    const forms = sameMailbox(email);
    for (const [name, form] of Object.entries(forms)) {
      const res = await t.request('POST', '/api/auth/generate-reset-token', { json: { email: form } });
      assert.equal(res.status, 200, `${name}: ${res.text}`);
    }
    for (const form of Object.values(refused(email))) await t.request('POST', '/api/auth/generate-reset-token', { json: { email: form } });
    const deadline = Date.now() + 5000;
    const resets = () => inbox.messages.filter((m) => m.subject === 'Réinitialisation de ton mot de passe' && recipients(m).some((r) => r.normalize('NFC').includes(email.split('@')[0])));
    while (resets().length < Object.keys(forms).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    const sent = resets();
    assert.equal(sent.length, Object.keys(forms).length, 'one mail per spelling, none for the look-alikes');
    for (const mail of sent) assert.deepEqual(recipients(mail).map((r) => r.normalize('NFC')), [email]);
  });

  it('address change: another spelling of someone else’s address is taken; one’s own other spelling changes nothing', async () => {
    const email = accented();
    const owner = await register(t, { ...newPerson('forms'), email });
    const other = await register(t, newPerson('forms'));
    for (const [name, form] of Object.entries(sameMailbox(email))) {
      const res = await t.request('POST', '/api/profile/update', { key: other.key, json: { email: form, password: other.password } });
      assert.equal(res.status, 409, `${name}: ${res.text}`);
    }
    for (const [name, form] of Object.entries(refused(email))) {
      const res = await t.request('POST', '/api/profile/update', { key: other.key, json: { email: form, password: other.password } });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assert.deepEqual(res.body, { detail: 'Adresse e-mail invalide.' });
    }
    const own = await t.request('POST', '/api/profile/update', { key: owner.key, json: { email: email.normalize('NFD').toUpperCase() } });
    assert.equal(own.status, 400, 'the same address: nothing to change (and no new verification)');
    assert.equal((await t.db.models.User.findByPk(other.id))!.email, other.email);
  });

  it('migration 0015: an address stored in another spelling before is rewritten, unless its form is taken', async () => {
    const { User } = t.db.models;
    const now = new Date();
    const row = (email: string, tag: string) =>
      User.create({ email, username: `mig${process.pid}${tag}${++n}`, firstName: 'A', lastName: 'B', passwordHash: null, role: 'user', plan: 'free', credits: 0, emailVerified: false, createdAt: now, updatedAt: now });
    const nfd = accented();
    const dotted = accented();
    const taken = accented();
    const stored = { nfd: await row(nfd.normalize('NFD'), 'a'), dotted: await row(`${dotted.toUpperCase()}.`, 'b'), clash: await row(taken.normalize('NFD'), 'c') };
    const holder = await register(t, { ...newPerson('forms'), email: taken });
    await canonicalAddresses({ context: t.db.sequelize.getQueryInterface() });
    assert.equal((await User.findByPk(stored.nfd.id))!.email, nfd);
    assert.equal((await User.findByPk(stored.dotted.id))!.email, dotted);
    assert.equal((await User.findByPk(stored.clash.id))!.email, taken.normalize('NFD'), 'the form is held by another account: left');
    assert.equal((await User.findByPk(holder.id))!.email, taken);
    const reset = await t.request('POST', '/api/auth/generate-reset-token', { json: { email: nfd.normalize('NFD') } });
    assert.equal(reset.status, 200);
    await inbox.waitFor((m) => m.subject === 'Réinitialisation de ton mot de passe' && recipients(m).some((r) => r.normalize('NFC') === nfd));
  });
});
