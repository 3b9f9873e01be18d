import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstPage, hasMore, mergePage, nextCount, nextPage, type PageRequest, type Paged } from '../src/features/admin/pages.js';
import { ARCHIVE_PAGES, BACKTESTS_PAGES } from '../src/features/admin/rules.js';

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

describe('admin lists loaded page by page (backtests 20 + 20, archive 5 + 10)', () => {
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
});
