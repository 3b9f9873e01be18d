import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstPage, hasMore, mergePage, nextCount, nextPage, removeRow, shownOf, updateRow, type PageRequest, type Paged } from '../src/features/admin/pages.js';
import { ARCHIVE_PAGES, BACKTESTS_PAGES, HISTORY_PAGES, USER_PAGES } from '../src/features/admin/rules.js';

type Row = { id: number };
const idOf = (row: Row) => row.id;
/** Rows with ids from `from` down (newest first, as the admin lists are). */
const rows = (from: number, count: number): Row[] => Array.from({ length: count }, (_, i) => ({ id: from - i }));
const ids = (list: Paged<Row>) => list.items.map((r) => r.id);

/** A listing as the server answers it: newest first, `limit` capped (400 past it), an optional count. */
function listing(all: () => Row[], cap: number, withTotal: boolean) {
  const asked: PageRequest[] = [];
  return {
    asked,
    answer(request: PageRequest) {
      asked.push(request);
      if (request.limit < 1 || request.limit > cap || request.offset < 0) throw new Error(`400 Pagination invalide : limit ${request.limit}`);
      const list = all();
      return { items: list.slice(request.offset, request.offset + request.limit), total: withTotal ? list.length : null };
    },
  };
}

/** Clicks "more" while the list offers it, as the tabs do. */
function walk(sizes: typeof BACKTESTS_PAGES, server: ReturnType<typeof listing>, between: () => void = () => {}): Paged<Row> {
  let request = firstPage(sizes);
  let answer = server.answer(request);
  let list = mergePage(null, request, answer.items, idOf, answer.total);
  while (hasMore(list)) {
    between();
    request = nextPage(list, sizes);
    answer = server.answer(request);
    list = mergePage(list, request, answer.items, idOf, answer.total);
  }
  return list;
}

describe('admin lists loaded page by page (backtests 20 + 20, archive 5 + 10, users 100 + 100, history 200 + 200)', () => {
  it('asks for the first page, then the next one only: never a limit above the page size', () => {
    assert.deepEqual(firstPage(BACKTESTS_PAGES), { limit: 20, offset: 0 });
    assert.deepEqual(firstPage(ARCHIVE_PAGES), { limit: 5, offset: 0 });
    const archive = mergePage(null, firstPage(ARCHIVE_PAGES), rows(100, 5), idOf);
    assert.deepEqual(nextPage(archive, ARCHIVE_PAGES), { limit: 10, offset: 5 });
    const more = mergePage(archive, nextPage(archive, ARCHIVE_PAGES), rows(95, 10), idOf);
    assert.deepEqual(nextPage(more, ARCHIVE_PAGES), { limit: 10, offset: 15 });
  });

  it('appends the next page after the rows already shown', () => {
    const first = mergePage(null, { limit: 20, offset: 0 }, rows(45, 20), idOf, 45);
    const second = mergePage(first, { limit: 20, offset: 20 }, rows(25, 20), idOf, 45);
    assert.deepEqual(ids(second), rows(45, 40).map((r) => r.id));
    assert.deepEqual([second.offset, second.total, second.full], [40, 45, true]);
    assert.equal(first.items.length, 20, 'the earlier list is left as it was');
  });

  it('drops a row whose id is already shown (runs added between two clicks push the older ones down)', () => {
    const first = mergePage(null, { limit: 20, offset: 0 }, rows(45, 20), idOf, 45);
    // Three new runs (48, 47, 46) since: positions 20–39 are now ids 28 down to 9.
    const second = mergePage(first, { limit: 20, offset: 20 }, rows(28, 20), idOf, 48);
    assert.deepEqual(ids(second), rows(45, 37).map((r) => r.id));
    assert.equal(new Set(ids(second)).size, ids(second).length);
    assert.equal(second.offset, 40, 'the next page starts after what the server handed, repeats included');
    // A page of nothing but repeats (20 more runs since) still moves the list forward.
    const third = mergePage(second, { limit: 20, offset: 40 }, rows(28, 20), idOf, 68);
    assert.deepEqual(ids(third), ids(second));
    assert.deepEqual(nextPage(third, BACKTESTS_PAGES), { limit: 20, offset: 60 });
  });

  it('starts again from the first page on a reload, a deletion or a restoration (offset 0)', () => {
    const long = mergePage(mergePage(null, { limit: 5, offset: 0 }, rows(30, 5), idOf), { limit: 10, offset: 5 }, rows(25, 10), idOf);
    assert.equal(long.items.length, 15);
    const reloaded = mergePage(long, firstPage(ARCHIVE_PAGES), [{ id: 30 }, { id: 28 }, { id: 27 }, { id: 26 }, { id: 25 }], idOf);
    assert.deepEqual(ids(reloaded), [30, 28, 27, 26, 25]);
    assert.deepEqual(nextPage(reloaded, ARCHIVE_PAGES), { limit: 10, offset: 5 });
  });

  it('"more" while loaded < total (backtests) or while the last page came back full (archive)', () => {
    const first = mergePage(null, { limit: 20, offset: 0 }, rows(45, 20), idOf, 45);
    assert.deepEqual([hasMore(first), nextCount(first, BACKTESTS_PAGES)], [true, 20]);
    const second = mergePage(first, { limit: 20, offset: 20 }, rows(25, 20), idOf, 45);
    assert.deepEqual([hasMore(second), nextCount(second, BACKTESTS_PAGES)], [true, 5]);
    assert.equal(hasMore(mergePage(second, { limit: 20, offset: 40 }, rows(5, 5), idOf, 45)), false);
    assert.equal(hasMore(mergePage(first, { limit: 20, offset: 20 }, rows(25, 20), idOf, 40)), false, 'exactly the total');
    assert.equal(hasMore(mergePage(null, { limit: 20, offset: 0 }, rows(3, 3), idOf, 3)), false);
    assert.equal(hasMore(mergePage(null, { limit: 20, offset: 0 }, [], idOf, 0)), false);
    const archive = mergePage(null, { limit: 5, offset: 0 }, rows(9, 5), idOf);
    assert.equal(hasMore(archive), true);
    assert.equal(hasMore(mergePage(archive, { limit: 10, offset: 5 }, rows(4, 4), idOf)), false);
    assert.equal(hasMore(mergePage(archive, { limit: 10, offset: 5 }, [], idOf)), false);
    assert.equal(hasMore(null), false);
  });

  it('reaches every one of 1,234 backtests through a listing capped at 500, 20 at a time', () => {
    const all = rows(1234, 1234);
    const server = listing(() => all, 500, true);
    const list = walk(BACKTESTS_PAGES, server);
    assert.deepEqual(ids(list), all.map((r) => r.id));
    assert.ok(server.asked.every((r) => r.limit === 20), 'only pages of 20 are asked for');
    assert.deepEqual(server.asked.slice(0, 3), [{ limit: 20, offset: 0 }, { limit: 20, offset: 20 }, { limit: 20, offset: 40 }]);
  });

  it('reaches every archive entry past 100 (the route caps limit at 100), and new entries between clicks leave no gap', () => {
    let all = rows(230, 230);
    const server = listing(() => all, 100, false);
    let next = 231;
    const list = walk(ARCHIVE_PAGES, server, () => {
      if (next < 240) all = [{ id: next++ }, ...all];
    });
    assert.deepEqual(ids(list), rows(230, 230).map((r) => r.id), 'the entries there at the first page, each once, in order');
    assert.deepEqual(server.asked.slice(0, 2), [{ limit: 5, offset: 0 }, { limit: 10, offset: 5 }]);
    assert.ok(server.asked.slice(1).every((r) => r.limit === 10));
  });

  it('reaches every one of 12,345 accounts, in the server\'s credits order, 100 at a time (the old single call stopped at 5,000)', () => {
    // The server's order (credits, most first; ties by id): the richest accounts are the oldest
    // ones here, so a list cut to the newest 5,000 would miss them.
    const all = Array.from({ length: 12_345 }, (_, i) => ({ id: i + 1, credits: 12_345 - i }));
    const server = listing(() => all, 5000, true);
    const list = walk(USER_PAGES, server);
    assert.deepEqual(ids(list), all.map((u) => u.id));
    assert.equal(list.items[0].id, 1, 'the richest account is on the first page');
    assert.equal(server.asked.length, 124);
    assert.ok(server.asked.every((r, i) => r.limit === 100 && r.offset === i * 100));
    assert.equal(nextCount(mergePage(null, firstPage(USER_PAGES), all.slice(0, 100), idOf, 150), USER_PAGES), 50, '"Afficher 50 de plus" near the end');
  });

  it('pages the global history by 200, and its count is the server\'s total, not the lines loaded', () => {
    const lines = rows(7_000, 7_000);
    const server = listing(() => lines, 5000, true);
    const first = mergePage(null, firstPage(HISTORY_PAGES), server.answer(firstPage(HISTORY_PAGES)).items, idOf, 7_000);
    assert.deepEqual([first.items.length, first.total, hasMore(first), nextCount(first, HISTORY_PAGES)], [200, 7_000, true, 200]);
    assert.equal(shownOf(first.items.length, first.total!, 'ligne(s)'), '200 sur 7\u202f000 ligne(s)');
    assert.equal(shownOf(5, 12, 'ligne(s)'), '5 sur 12 ligne(s)', 'the preview');
    assert.deepEqual(ids(walk(HISTORY_PAGES, server)), lines.map((l) => l.id));
    assert.ok(server.asked.slice(1).every((r) => r.limit === 200));
  });

  it('writes "X sur N": never more shown than counted', () => {
    assert.equal(shownOf(100, 12_345, 'compte(s)'), '100 sur 12\u202f345 compte(s)');
    assert.equal(shownOf(20, 23), '20 sur 23');
    assert.equal(shownOf(25, 23), '23 sur 23', 'rows added since the count');
    assert.equal(shownOf(0, 0, 'compte(s)'), '0 sur 0 compte(s)');
  });

  it('changes one row in place (a user\'s credits after +1), and the next page still follows', () => {
    type User = { id: number; credits: number };
    const users: User[] = Array.from({ length: 150 }, (_, i) => ({ id: 150 - i, credits: 0 }));
    const first = mergePage<User>(null, firstPage(USER_PAGES), users.slice(0, 100), (u) => u.id, 150);
    const changed = updateRow(first, 120, (u) => u.id, (u) => ({ ...u, credits: u.credits + 1 }));
    assert.deepEqual(changed.items.filter((u) => u.credits !== 0), [{ id: 120, credits: 1 }]);
    assert.deepEqual(changed.items.map((u) => u.id), first.items.map((u) => u.id), 'the row keeps its place');
    assert.deepEqual([changed.offset, changed.total, changed.full], [first.offset, first.total, first.full]);
    assert.equal(first.items.find((u) => u.id === 120)!.credits, 0, 'the earlier list is left as it was');
    assert.equal(updateRow(first, '120', (u) => u.id, (u) => ({ ...u, credits: 9 })).items.find((u) => u.id === 120)!.credits, 9, 'ids compare as text');
    assert.deepEqual(updateRow(first, 999, (u) => u.id, () => ({ id: 0, credits: 0 })).items, first.items, 'an id not shown changes nothing');
    const more = mergePage(changed, nextPage(changed, USER_PAGES), users.slice(100), (u) => u.id, 150);
    assert.deepEqual([more.items.length, more.items.find((u) => u.id === 120)!.credits, hasMore(more)], [150, 1, false]);
  });

  it('takes a deleted row out: the next page starts one row earlier, so the row that moved up is not skipped', () => {
    type Run = { id: number };
    const server: Run[] = Array.from({ length: 20 }, (_, i) => ({ id: 20 - i }));
    const sizes = { first: 9, next: 9 };
    const first = mergePage<Run>(null, firstPage(sizes), server.slice(0, 9), (r) => r.id, 20);
    const after = removeRow(first, 15, (r) => r.id);
    server.splice(server.findIndex((r) => r.id === 15), 1);
    assert.deepEqual([after.items.length, after.offset, after.total], [8, 8, 19]);
    const request = nextPage(after, sizes);
    const more = mergePage(after, request, server.slice(request.offset, request.offset + request.limit), (r) => r.id, 19);
    assert.deepEqual(more.items.map((r) => r.id), server.slice(0, 17).map((r) => r.id), 'every run once, in order');
    assert.equal(removeRow(first, 999, (r) => r.id), first, 'an id not shown changes nothing');
    const uncounted = mergePage<Run>(null, firstPage(sizes), server.slice(0, 9), (r) => r.id, null);
    assert.equal(removeRow(uncounted, 20, (r) => r.id).total, null);
  });
});
