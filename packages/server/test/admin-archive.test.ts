import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ArchiveEntry } from '../src/strategies/archive.js';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp();
let admin: { key: string };
let owner: { id: number; username: string };

const entry = (over: Partial<ArchiveEntry>): ArchiveEntry => ({
  type: 'import',
  strategyId: null,
  userId: owner.id,
  displayName: 'Cassure simple',
  slMode: 'external',
  status: 'ok',
  filename: 'cassure.py',
  source: 'def detect_breakout(candles, params):\n    return []\n',
  meta: { provider: 'import', attempts: 1, generation_seconds: 0.5, openai_failures: 0, dry_run_failures: 0 },
  ...over,
});

const get = (path: string) => t.request('GET', path, { key: admin.key });

describe(`admin strategy archive (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
    owner = await register(t);
    const { archive } = t.app.services;
    await archive.record(entry({ strategyId: 'us_import1', note: 'première' }));
    t.clock.advance(1000);
    await archive.record(entry({ strategyId: null, status: 'failed', source: null, meta: { provider: 'import', attempts: 1, generation_seconds: 1.5, openai_failures: 0, dry_run_failures: 1, error: 'refusé' } }));
    for (const [i, seconds] of [[1, 2], [2, 4]] as const) {
      t.clock.advance(1000);
      await archive.record(entry({ type: 'gpt', strategyId: `us_gpt${i}`, filename: `gpt${i}.py`, meta: { provider: 'openai', attempts: i, generation_seconds: seconds, openai_failures: i - 1, dry_run_failures: 0, user_input: 'RSI < 30' } }));
    }
  });

  it('overview per type, and recent entries with their files', async () => {
    const overview = await get('/api/admin/strategies/overview');
    assert.equal(overview.status, 200);
    assert.deepEqual(overview.body.data, {
      gpt: { total_archived: 2, openai_failures: 1, avg_generation_seconds: 3, avg_attempts: 1.5, dry_run_failures: 0 },
      import: { total_archived: 2, openai_failures: 0, avg_generation_seconds: 1, avg_attempts: 1, dry_run_failures: 1 },
    });
    const recent = await get('/api/admin/strategies/recent?type=import&limit=5');
    assert.equal(recent.status, 200);
    const [failed, ok] = recent.body.items;
    assert.deepEqual([failed.status, failed.strategy_id, failed.files, failed.meta_present], ['failed', null, [], true]);
    assert.deepEqual([ok.strategy_id, ok.display_name, ok.sl_mode, ok.user_id, ok.user, ok.note, ok.deleted], ['us_import1', 'Cassure simple', 'external', owner.id, owner.username, 'première', false]);
    assert.equal(ok.meta.kpi.snapshot_ts, ok.timestamp);
    assert.equal(ok.files.length, 1);
    assert.equal(ok.files[0].name, 'cassure.py');
    assert.equal(ok.files[0].bytes, entry({}).source!.length);
    assert.equal((await get('/api/admin/strategies/recent?type=gpt&limit=1')).body.items.length, 1);
  });

  it('detail and download by type, id and timestamp; a stale timestamp or another type is not found', async () => {
    const [ok] = (await get('/api/admin/strategies/recent?type=import&limit=5')).body.items.slice(1);
    const detail = await get(`/api/admin/strategies/detail?type=import&id=${ok.id}&timestamp=${ok.timestamp}`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.source, entry({}).source);
    assert.equal((await get(`/api/admin/strategies/detail?type=import&id=us_import1&timestamp=${ok.timestamp}`)).body.id, ok.id);
    const file = await fetch(`${t.url}/api/admin/strategies/archive/download?type=import&id=${ok.id}&ts=${ok.timestamp}`, { headers: { 'x-api-key': admin.key } });
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-disposition'), 'attachment; filename="cassure.py"');
    assert.equal(await file.text(), entry({}).source);
    for (const [query, status] of [
      [`type=import&id=${ok.id}&timestamp=${ok.timestamp + 1}`, 404],
      [`type=gpt&id=${ok.id}&timestamp=${ok.timestamp}`, 404],
      [`type=python&id=${ok.id}`, 400],
      ['type=import', 400],
      [`type=import&id=${ok.id}&timestamp=demain`, 400],
      ['type=import&id=999999', 404],
      ['type=import&id=../../etc/passwd', 404],
    ] as const) {
      const res = await get(`/api/admin/strategies/detail?${query}`);
      assert.equal(res.status, status, `${query}: ${res.text}`);
      assert.equal(typeof res.body.detail, 'string');
    }
    const failed = (await get('/api/admin/strategies/recent?type=import&limit=1')).body.items[0];
    const none = await get(`/api/admin/strategies/archive/download?type=import&id=${failed.id}`);
    assert.deepEqual([none.status, none.body.detail], [404, 'Aucun fichier archivé pour cette entrée.']);
    for (const query of ['type=gpt&limit=0', 'type=gpt&limit=101', 'type=x', 'type=gpt&include_deleted=peut-être']) {
      assert.equal((await get(`/api/admin/strategies/recent?${query}`)).status, 400, query);
    }
  });

  it('deletes softly and restores every entry of a type', async () => {
    const items = (await get('/api/admin/strategies/recent?type=gpt&limit=5')).body.items;
    for (const item of items) {
      const res = await t.request('DELETE', `/api/admin/strategies/archive?type=gpt&id=${item.id}&ts=${item.timestamp}`, { key: admin.key });
      assert.deepEqual([res.status, res.body.detail], [200, 'Entrée archivée supprimée (elle reste restaurable).']);
    }
    assert.equal((await get('/api/admin/strategies/recent?type=gpt')).body.items.length, 0);
    assert.equal((await get('/api/admin/strategies/overview')).body.data.gpt.total_archived, 0);
    assert.equal((await get('/api/admin/strategies/recent?type=gpt&include_deleted=true')).body.items.filter((i: { deleted: boolean }) => i.deleted).length, 2);
    assert.equal((await get(`/api/admin/strategies/archive/download?type=gpt&id=${items[0].id}`)).status, 200, 'the file stays');
    assert.equal((await t.request('DELETE', '/api/admin/strategies/archive?type=gpt', { key: admin.key })).status, 400);
    assert.equal((await t.request('PATCH', '/api/admin/strategies/archive/restore-all', { key: admin.key })).status, 400);
    const restored = await t.request('PATCH', '/api/admin/strategies/archive/restore-all?type=gpt', { key: admin.key });
    assert.deepEqual([restored.status, restored.body.restored, restored.body.detail], [200, 2, '2 entrée(s) restaurée(s).']);
    assert.equal((await get('/api/admin/strategies/overview')).body.data.gpt.total_archived, 2);
    assert.equal((await t.request('PATCH', '/api/admin/strategies/archive/restore-all?type=import', { key: admin.key })).body.restored, 0);
  });

  it('pages through the archive with offset (5, then 10 at a time) without overlap or gap; a bad offset is 400', async () => {
    // 23 more gpt entries: 25 in all, so the console's pages are 5, 10, 10 and an empty one.
    for (let i = 3; i <= 25; i++) {
      t.clock.advance(1000);
      await t.app.services.archive.record(entry({ type: 'gpt', strategyId: `us_gpt${i}`, filename: `gpt${i}.py` }));
    }
    const ids = async (query: string) => {
      const res = await get(`/api/admin/strategies/recent?type=gpt&${query}`);
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      return (res.body.items as { id: number }[]).map((i) => i.id);
    };
    const whole = await ids('limit=100');
    assert.equal(whole.length, 25);
    const pages = [await ids('limit=5'), await ids('limit=10&offset=5'), await ids('limit=10&offset=15'), await ids('limit=10&offset=25')];
    assert.deepEqual(pages.map((p) => p.length), [5, 10, 10, 0]);
    assert.deepEqual(pages.flat(), whole, 'the pages put end to end are the whole list, newest first');
    assert.deepEqual(await ids('limit=5&offset=0'), pages[0], 'offset 0 is the default');
    assert.deepEqual(await ids('limit=3&offset=22'), whole.slice(22));
    assert.deepEqual(await ids('offset=1000'), []);
    // Deleted entries stay out of the pages unless asked for.
    const [newest] = (await get('/api/admin/strategies/recent?type=gpt&limit=1')).body.items;
    await t.request('DELETE', `/api/admin/strategies/archive?type=gpt&id=${newest.id}&ts=${newest.timestamp}`, { key: admin.key });
    assert.deepEqual(await ids('limit=10&offset=5'), whole.slice(6, 16));
    assert.deepEqual(await ids('limit=10&offset=5&include_deleted=true'), whole.slice(5, 15));
    await t.request('PATCH', '/api/admin/strategies/archive/restore-all?type=gpt', { key: admin.key });
    for (const offset of ['-1', '1.5', 'abc', '1e3', '0x10', '99999999999999999999']) {
      const res = await get(`/api/admin/strategies/recent?type=gpt&offset=${offset}`);
      assert.deepEqual([res.status, res.body.detail], [400, 'Pagination invalide : offset ≥ 0, limit de 1 à 100.'], offset);
    }
    const twice = await get('/api/admin/strategies/recent?type=gpt&offset=1&offset=2');
    assert.deepEqual([twice.status, twice.body.detail], [400, 'Champ « offset » : une seule valeur attendue (pas une liste ni un objet).']);
    assert.equal((await get('/api/admin/strategies/recent?type=gpt&limit=101&offset=5')).status, 400, 'the cap is per page');
  });
});
