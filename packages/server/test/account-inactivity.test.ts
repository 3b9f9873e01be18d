import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { formatDayFr } from '@bt/core/format';
import { DisabledMailer, SmtpMailer, type Mailer } from '../src/mail/index.js';
import { AccountInactivity } from '../src/users/inactivity.js';
import { register, useTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';
import { funded, makeAdmin } from './support/work.js';

/**
 * Inactive accounts (docs/server.md "Inactive accounts", the legal notice's "Un compte supprimé ou
 * inactif est archivé pendant 12 mois avant effacement"): no activity for 36 months and no
 * subscription in force, warned once by e-mail, archived 30 days later unless seen, then erased
 * 12 months after with the deleted accounts. Mails go to the local SMTP server.
 */
let inbox: Inbox;
const t = useTestApp(
  async () => {
    inbox = await startSmtp();
    return { smtpUrl: inbox.url };
  },
  { stopped: () => inbox.close() },
);

const DAY = 24 * 3600 * 1000;
const WARNING = 'Ton compte sera archivé le';
const mailers: SmtpMailer[] = [];
after(() => mailers.forEach((m) => m.close()));

/** The sweep as the app runs it, over the test app's database, clock and profiles. */
function sweeper(t: TestApp, mailer: Mailer = smtp(inbox.url)): AccountInactivity {
  return new AccountInactivity({ db: t.db, clock: t.clock, mailer, profiles: t.app.services.profiles, urls: { publicUrl: 'http://web.bt.test' }, log: (m) => t.logs.push(m) });
}

function smtp(url: string): SmtpMailer {
  const mailer = new SmtpMailer(url, 'bt <no-reply@bt.test>');
  mailers.push(mailer);
  return mailer;
}

/** `from` plus `months` calendar months and `days` days. */
function later(from: Date, months: number, days = 0): Date {
  const target = new Date(from.getTime());
  target.setUTCMonth(target.getUTCMonth() + months);
  return new Date(target.getTime() + days * DAY);
}

function moveTo(t: TestApp, at: Date): void {
  t.clock.advance(at.getTime() - t.clock.now().getTime());
}

const warningsTo = (email: string) => inbox.messages.filter((m) => recipients(m).includes(email) && (m.subject ?? '').startsWith(WARNING));
const row = (t: TestApp, id: number) => t.db.models.User.findByPk(id).then((u) => u!);
/** Mails travel asynchronously: a short wait before counting that none (or no second one) came. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe(`inactive accounts (${TEST_DIALECT})`, () => {
  it('warns once 36 months after the last activity, not at 35 months and 29 days, even with two sweeps at once', async () => {
    const user = await funded(t, 7);
    const seen = (await row(t, user.id)).lastSeenAt!;
    assert.ok(seen, 'the registration’s first request wrote last_seen_at');

    moveTo(t, later(seen, 35, 29));
    await sweeper(t).sweep();
    await settle();
    assert.equal(warningsTo(user.email).length, 0, '35 months and 29 days: not inactive yet');
    assert.equal((await row(t, user.id)).inactivityWarnedAt, null);

    moveTo(t, later(seen, 36));
    await Promise.all([sweeper(t).sweep(), sweeper(t).sweep()]);
    await sweeper(t).sweep();
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email) && (m.subject ?? '').startsWith(WARNING));
    await settle();
    assert.equal(warningsTo(user.email).length, 1, 'one mail for two concurrent sweeps and a third one');

    const warned = await row(t, user.id);
    assert.equal(warned.inactivityWarnedAt?.getTime(), later(seen, 36).getTime());
    assert.equal(warned.inactivityMailedAt?.getTime(), warned.inactivityWarnedAt!.getTime());
    assert.equal(warned.deletedAt, null, 'warned, not archived');

    const archiveOn = new Date(later(seen, 36).getTime() + 30 * DAY);
    const day = { format: (d: Date) => formatDayFr(d.getTime()) };
    assert.equal(mail.subject, `Ton compte sera archivé le ${day.format(archiveOn)}`);
    const text = mail.text ?? '';
    assert.match(text, new RegExp(`^Bonjour ${user.first_name},`));
    assert.ok(text.includes(`Tu n'as pas utilisé ton compte depuis le ${day.format(seen)}.`), text);
    assert.ok(text.includes(`il sera archivé le ${day.format(archiveOn)}`), text);
    assert.ok(text.includes('Il te reste 7 crédits : ils ne pourront plus être utilisés une fois le compte archivé.'), text);
    assert.ok(text.includes('Pour garder ton compte, il suffit de te connecter avant cette date :\nhttp://web.bt.test/login'), text);
    assert.equal(t.logs.filter((l) => l === `account ${user.id}: inactive since ${seen.toISOString()}, warned of its archiving on ${archiveOn.toISOString()}, mailed`).length, 1);
  });

  it('archives 30 days after the warning as a deletion would, then erases the row 12 months later', async () => {
    const user = await register(t);
    const seen = (await row(t, user.id)).lastSeenAt!;
    moveTo(t, later(seen, 36));
    // The app's own sweep (app/services.ts), with its mailer.
    await t.app.services.inactivity.sweep();
    await inbox.waitFor((m) => recipients(m).includes(user.email) && (m.subject ?? '').startsWith(WARNING));
    const warnedAt = (await row(t, user.id)).inactivityWarnedAt!;
    assert.ok(warnedAt);

    moveTo(t, new Date(warnedAt.getTime() + 30 * DAY - 1000));
    await sweeper(t).sweep();
    assert.equal((await row(t, user.id)).deletedAt, null, 'a second before the 30 days: still live');

    moveTo(t, new Date(warnedAt.getTime() + 30 * DAY));
    await Promise.all([t.app.services.inactivity.sweep(), sweeper(t).sweep()]);
    const archived = await row(t, user.id);
    assert.equal(archived.deletedAt?.getTime(), t.clock.now().getTime());
    assert.equal(archived.deletedEmail, user.email);
    assert.deepEqual([archived.email, archived.username, archived.passwordHash], [null, null, null]);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: user.id } }), 0, 'sessions revoked');
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 401);
    assert.equal(t.logs.filter((l) => l === `account ${user.id}: inactive since ${seen.toISOString()}, archived`).length, 1, 'archived once by the two sweeps');
    const events = await t.db.models.AppEvent.findAll({ where: { kind: 'deletion', userId: user.id } });
    assert.deepEqual(events.map((e) => e.method), ['inactivity'], 'the deletion says why');
    assert.equal(await t.db.models.EmailRecreation.findByPk(user.email), null, 'not counted toward the re-creation limit');
    const { first_name, last_name, email, username, password } = user;
    const again = await t.request('POST', '/api/register', { json: { first_name, last_name, email, username, password } });
    assert.equal(again.status, 201, 'the address is free for a new account');

    moveTo(t, later(archived.deletedAt!, 11));
    await t.app.services.purge.sweepDeleted();
    assert.equal((await row(t, user.id)).erasedAt, null, '11 months: archived');
    moveTo(t, later(archived.deletedAt!, 12, 1));
    await t.app.services.purge.sweepDeleted();
    const erased = await row(t, user.id);
    assert.ok(erased.erasedAt, 'erased 12 months after the archiving');
    assert.deepEqual([erased.deletedEmail, erased.firstName, erased.lastSeenAt], [null, '', null]);
  });

  it('keeps an account seen after the warning, or signed in without a request since, and warns it again in a later period', async () => {
    const visitor = await register(t);
    const signer = await register(t);
    const start = (await row(t, visitor.id)).lastSeenAt!;
    moveTo(t, later(start, 36, 1));
    await sweeper(t).sweep();
    await inbox.waitFor((m) => recipients(m).includes(visitor.email) && (m.subject ?? '').startsWith(WARNING));
    await inbox.waitFor((m) => recipients(m).includes(signer.email) && (m.subject ?? '').startsWith(WARNING));

    t.clock.advance(10 * DAY);
    const login = async (u: typeof visitor) => {
      const res = await t.request('POST', '/api/login', { json: { identifier: u.email, password: u.password } });
      assert.equal(res.status, 200, res.text);
      return res.body.token as string;
    };
    const key = await login(visitor);
    assert.equal((await t.request('GET', '/api/me', { key })).status, 200);
    const back = t.clock.now();
    assert.equal((await row(t, visitor.id)).lastSeenAt?.getTime(), back.getTime());
    await login(signer); // and nothing else

    t.clock.advance(25 * DAY);
    await sweeper(t).sweep();
    for (const u of [visitor, signer]) assert.equal((await row(t, u.id)).deletedAt, null, `${u.username} came back: not archived`);
    assert.ok((await row(t, signer.id)).lastSeenAt!.getTime() >= back.getTime(), 'the sign-in counts as activity');
    await settle();
    assert.equal(warningsTo(visitor.email).length, 1, 'no second warning in the same period');

    moveTo(t, later(back, 36, 1));
    await sweeper(t).sweep();
    await settle();
    assert.equal(warningsTo(visitor.email).length, 2, 'the next period warns again');
    assert.equal(warningsTo(signer.email).length, 2);
  });

  it('never warns an admin or a subscriber whose plan renews or runs, and warns one whose plan is over', async () => {
    const admin = await makeAdmin(t);
    const renewing = await register(t);
    const running = await register(t);
    const lapsed = await register(t);
    const { User } = t.db.models;
    const now = t.clock.now();
    await User.update({ plan: 'SUB_9', subscriptionProvider: 'stripe', subscriptionId: 'sub_inactive', subscriptionAutoRenew: true, subscriptionRenewDate: now }, { where: { id: renewing.id } });
    await User.update({ plan: 'SUB_25', subscriptionProvider: 'paypal', subscriptionRenewDate: later(now, 40) }, { where: { id: running.id } });
    await User.update({ plan: 'SUB_9', subscriptionProvider: 'paypal', subscriptionRenewDate: later(now, 1) }, { where: { id: lapsed.id } });

    moveTo(t, later(now, 36, 1));
    await sweeper(t).sweep();
    await inbox.waitFor((m) => recipients(m).includes(lapsed.email) && (m.subject ?? '').startsWith(WARNING));
    t.clock.advance(31 * DAY);
    await sweeper(t).sweep();
    await settle();
    for (const u of [admin, renewing, running]) {
      assert.equal(warningsTo(u.email).length, 0, `${u.username}: never warned`);
      const r = await row(t, u.id);
      assert.deepEqual([r.inactivityWarnedAt, r.deletedAt], [null, null], `${u.username}: never archived`);
    }
    assert.ok((await row(t, lapsed.id)).deletedAt, 'a plan over protects nothing');
  });

  it('without a mailer, records the warning as not mailed and archives 30 days later all the same; an account never seen counts from its creation', async () => {
    const user = await register(t);
    await t.db.models.User.update({ lastSeenAt: null }, { where: { id: user.id } });
    const created = (await row(t, user.id)).createdAt;
    const unmailed = sweeper(t, new DisabledMailer());

    moveTo(t, later(created, 36));
    await unmailed.sweep();
    const warned = await row(t, user.id);
    assert.equal(warned.inactivityWarnedAt?.getTime(), Math.floor(t.clock.now().getTime() / 1000) * 1000);
    assert.equal(warned.inactivityMailedAt, null, 'recorded as not mailed');
    assert.ok(t.logs.some((l) => l.startsWith(`account ${user.id}: inactive since ${created.toISOString()}, warned`) && l.endsWith('not mailed (no mailer configured)')));

    t.clock.advance(30 * DAY);
    await unmailed.sweep();
    assert.ok((await row(t, user.id)).deletedAt, 'archived: the legal notice’s promise holds without a mailer');
    assert.equal(warningsTo(user.email).length, 0);
  });

  it('gives the warning back when the mail server refuses it, and warns at the next round', async () => {
    const user = await register(t);
    const seen = (await row(t, user.id)).lastSeenAt!;
    moveTo(t, later(seen, 36));
    const closed = await startSmtp();
    await closed.close();
    await sweeper(t, smtp(closed.url)).sweep();
    assert.equal((await row(t, user.id)).inactivityWarnedAt, null, 'not recorded: tried again');
    assert.ok(t.logs.some((l) => l.startsWith(`account ${user.id}: inactivity warning not mailed (`)));

    t.clock.advance(1000);
    await sweeper(t).sweep();
    await inbox.waitFor((m) => recipients(m).includes(user.email) && (m.subject ?? '').startsWith(WARNING));
    assert.ok((await row(t, user.id)).inactivityMailedAt);
  });

  it('mails again a warning a stopped process recorded and never mailed, and never archives it unmailed while a mailer is set', async () => {
    const user = await register(t);
    const seen = (await row(t, user.id)).lastSeenAt!;
    const left = later(seen, 36);
    // What a process stopped between the record and the mail leaves: warned, not mailed.
    await t.db.models.User.update({ inactivityWarnedAt: left, inactivityMailedAt: null }, { where: { id: user.id } });

    moveTo(t, new Date(left.getTime() + 5 * 60 * 1000));
    await sweeper(t).sweep();
    await settle();
    assert.equal(warningsTo(user.email).length, 0, 'five minutes: perhaps another server’s mail in flight');

    moveTo(t, new Date(left.getTime() + 31 * DAY));
    await sweeper(t).sweep();
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email) && (m.subject ?? '').startsWith(WARNING));
    const rewarned = await row(t, user.id);
    assert.equal(rewarned.deletedAt, null, 'not archived on a warning nobody received');
    assert.equal(rewarned.inactivityWarnedAt?.getTime(), Math.floor(t.clock.now().getTime() / 1000) * 1000, 'warned again now');
    assert.equal(rewarned.inactivityMailedAt?.getTime(), rewarned.inactivityWarnedAt!.getTime());
    assert.equal(mail.subject, `Ton compte sera archivé le ${formatDayFr(rewarned.inactivityWarnedAt!.getTime() + 30 * DAY)}`, 'with its own 30 days');

    t.clock.advance(30 * DAY);
    await sweeper(t).sweep();
    assert.ok((await row(t, user.id)).deletedAt, 'archived 30 days after the mail');
    assert.equal(warningsTo(user.email).length, 1);
  });

  it('finds the accounts by indexes, not by reading every user', async () => {
    const indexes = (await t.db.sequelize.getQueryInterface().showIndex('users')) as { name: string; fields: { attribute: string }[] }[];
    const fields = (name: string) => indexes.find((i) => i.name === name)?.fields.map((f) => f.attribute);
    assert.deepEqual(fields('users_deleted_seen'), ['deleted_at', 'last_seen_at']);
    assert.deepEqual(fields('users_deleted_warned'), ['deleted_at', 'inactivity_warned_at']);
  });
});
