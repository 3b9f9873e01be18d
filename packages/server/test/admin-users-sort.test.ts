// GET /api/admin/get_users?sort=…: the order is the database's, so the console can page through
// any number of accounts in it (docs/admin.md, "Users and history"). Before, the route knew only
// newest-first and the console sorted the first 5,000 accounts it had been given.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp();
const TAG = `srt${process.pid}`;

interface Seed {
  id: number;
  email: string;
  username: string | null;
  credits: number;
}

/**
 * Accounts created out of alphabetical order, so that id order, e-mail order and username order all
 * differ; letter case that a byte order would put first ('Bravo' before 'alpha'); usernames missing
 * (NULL, the only username that can repeat) and credits repeated, so ties happen and id breaks them.
 * ASCII letters only where the order is compared: accents and punctuation sort differently in
 * SQLite (code points) and MariaDB (its collation).
 */
const PEOPLE: [local: string, username: string | null, credits: number][] = [
  ['mike', 'Oscar', 5],
  ['Bravo', 'zulu', 0],
  ['alpha', null, 5],
  ['kilo', 'Charlie', 12],
  ['Delta', null, 0],
  ['echo', 'bravo', 5],
  ['Juliet', 'Alpha', 0],
  ['golf', null, 12],
  ['hotel', 'yankee', 5],
  ['India', 'Xray', 0],
  ['foxtrot', 'delta', 1],
  ['Lima', null, 5],
  ['charlie', 'Whiskey', 0],
];

let admin: { key: string };
const seeded: Seed[] = [];

/** The orders the route promises, written out in JavaScript. */
const lower = (value: string | null) => (value === null ? null : value.toLowerCase());
function byText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}
const EXPECTED: Record<string, (a: Seed, b: Seed) => number> = {
  newest: (a, b) => b.id - a.id,
  email: (a, b) => byText(lower(a.email), lower(b.email)) || a.id - b.id,
  username: (a, b) => byText(lower(a.username), lower(b.username)) || a.id - b.id,
  credits: (a, b) => b.credits - a.credits || a.id - b.id,
};

async function ids(query: string): Promise<{ ids: number[]; total: number }> {
  const res = await t.request('GET', `/api/admin/get_users?q=${TAG}&${query}`, { key: admin.key });
  assert.equal(res.status, 200, `${query}: ${res.text}`);
  return { ids: (res.body.users as { id: number }[]).map((u) => u.id), total: res.body.total };
}

describe(`admin users sorted by the server (${TEST_DIALECT})`, () => {
  // Inside the suite: node 20 does not wait for one root-level hook (the app's) before the next.
  before(async () => {
    admin = await makeAdmin(t);
    for (const [local, username, credits] of PEOPLE) {
      const row = await t.db.models.User.create({
        firstName: 'Tri',
        lastName: local,
        email: `${TAG}${local}@bt.test`,
        username: username === null ? null : `${TAG}${username}`,
        credits,
      });
      seeded.push({ id: row.id, email: row.email!, username: row.username, credits });
    }
  });

  it('sorts by newest (the default), e-mail and username (case-insensitive) or credits (most first), ties by id', async () => {
    assert.equal(seeded.length, PEOPLE.length);
    for (const [sort, compare] of Object.entries(EXPECTED)) {
      const expected = [...seeded].sort(compare).map((s) => s.id);
      assert.deepEqual((await ids(`sort=${sort}&limit=100`)).ids, expected, sort);
    }
    assert.deepEqual((await ids('limit=100')).ids, (await ids('sort=newest&limit=100')).ids, 'newest is the default');
    assert.deepEqual((await ids('sort=&limit=100')).ids, (await ids('sort=newest&limit=100')).ids, 'an empty sort is the default');
    // The cases a byte order or a missing tie-breaker would get wrong, spelled out.
    const email = (await ids('sort=email&limit=100')).ids;
    const at = (local: string) => email.indexOf(seeded[PEOPLE.findIndex((p) => p[0] === local)].id);
    assert.ok(at('alpha') < at('Bravo') && at('Bravo') < at('charlie'), 'alpha, Bravo, charlie');
    const credits = (await ids('sort=credits&limit=100')).ids;
    const fives = seeded.filter((s) => s.credits === 5).map((s) => s.id);
    assert.deepEqual(credits.slice(2, 2 + fives.length), [...fives].sort((a, b) => a - b), 'equal credits: the older account first');
    const username = (await ids('sort=username&limit=100')).ids;
    const missing = seeded.filter((s) => s.username === null).map((s) => s.id);
    assert.deepEqual(username.slice(0, missing.length), [...missing].sort((a, b) => a - b), 'no username first, by id');
  });

  it('pages through each sort with offset: the pages end to end are the whole list, no overlap, no gap', async () => {
    for (const [sort, compare] of Object.entries(EXPECTED)) {
      const whole = [...seeded].sort(compare).map((s) => s.id);
      for (const size of [1, 3, 4, 5]) {
        const pages: number[][] = [];
        for (let offset = 0; offset < PEOPLE.length + size; offset += size) {
          const page = await ids(`sort=${sort}&limit=${size}&offset=${offset}`);
          assert.equal(page.total, PEOPLE.length, `${sort} ${size}@${offset}: total`);
          pages.push(page.ids);
        }
        const joined = pages.flat();
        assert.deepEqual(joined, whole, `${sort}, pages of ${size}`);
        assert.equal(new Set(joined).size, joined.length, `${sort}, pages of ${size}: no row twice`);
        assert.deepEqual(pages.at(-1), [], 'past the end: nothing');
      }
    }
  });

  it('sorts every account, not only a search, and keeps q with the sort', async () => {
    const everyone = await t.request('GET', '/api/admin/get_users?sort=credits&limit=5000', { key: admin.key });
    assert.equal(everyone.status, 200);
    const credits = (everyone.body.users as { credits: number }[]).map((u) => u.credits);
    assert.deepEqual(credits, [...credits].sort((a, b) => b - a));
    assert.equal(everyone.body.users.length, everyone.body.total);
    const first = (await t.request('GET', '/api/admin/get_users?sort=credits&limit=2', { key: admin.key })).body.users as { credits: number }[];
    assert.deepEqual(first.map((u) => u.credits), [12, 12], 'the richest accounts come first, whatever their age');
    const one = await t.request('GET', `/api/admin/get_users?sort=username&q=${TAG}Charlie`, { key: admin.key });
    assert.deepEqual([one.body.total, one.body.users.map((u: { email: string }) => u.email)], [2, [`${TAG}kilo@bt.test`, `${TAG}charlie@bt.test`]]);
  });

  it('refuses an unknown sort with a 400 in French', async () => {
    for (const sort of ['oldest', 'EMAIL', 'credit', 'id', '-credits', 'newest%2Cemail']) {
      const res = await t.request('GET', `/api/admin/get_users?sort=${sort}`, { key: admin.key });
      assert.deepEqual([res.status, res.body.detail], [400, `Tri inconnu : « ${decodeURIComponent(sort)} » (newest, email, username, credits).`], sort);
    }
    const long = await t.request('GET', `/api/admin/get_users?sort=${'x'.repeat(80)}`, { key: admin.key });
    assert.equal(long.body.detail, `Tri inconnu : « ${'x'.repeat(40)} » (newest, email, username, credits).`);
    const twice = await t.request('GET', '/api/admin/get_users?sort=email&sort=credits', { key: admin.key });
    assert.deepEqual([twice.status, twice.body.detail], [400, 'Champ « sort » : une seule valeur attendue (pas une liste ni un objet).']);
  });
});
