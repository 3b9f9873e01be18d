import { useEffect, useRef, useState, type DependencyList } from 'react';
import { firstPage, hasMore, mergePage, nextPage, removeRow, updateRow, type PageRequest, type Paged, type PageSizes } from './pages.js';

export interface PagedLoad<T> {
  list: Paged<T> | null;
  /** The error of the last page asked for, or null (the rows already shown stay). */
  error: unknown;
  loading: boolean;
  /** Whether the "more" button has a page to ask for. */
  more: boolean;
  loadMore: () => void;
  /** Changes one shown row in place (an action's answer), without asking for the list again. */
  update: (id: string | number, change: (row: T) => T) => void;
  /** Takes out a row the server deleted, without asking for the list again. */
  remove: (id: string | number) => void;
}

/**
 * A list loaded page by page (features/paging/pages.ts): the first page on mount and again at each
 * change of `deps`, the next one on loadMore(). An answer that arrives after a restart belongs to
 * the old list and is dropped.
 */
export function usePages<T>(
  load: (request: PageRequest) => Promise<{ items: T[]; total?: number | null }>,
  idOf: (row: T) => string | number,
  sizes: PageSizes,
  deps: DependencyList,
): PagedLoad<T> {
  const [list, setList] = useState<Paged<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  // loadMore() reads the list as last merged, not as of the render that made the button.
  const current = useRef<Paged<T> | null>(null);
  const generation = useRef(0);

  function ask(request: PageRequest, mine: number) {
    setLoading(true);
    load(request).then(
      (answer) => {
        if (mine !== generation.current) return;
        const rows = Array.isArray(answer?.items) ? answer.items : [];
        const total = typeof answer?.total === 'number' ? answer.total : null;
        current.current = mergePage(current.current, request, rows, idOf, total);
        setList(current.current);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }

  useEffect(() => {
    ask(firstPage(sizes), ++generation.current);
    // The caller lists what the list depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  function loadMore() {
    if (loading || !current.current || !hasMore(current.current)) return;
    ask(nextPage(current.current, sizes), generation.current);
  }

  function update(id: string | number, change: (row: T) => T) {
    if (!current.current) return;
    // Through the ref, so a page arriving later is merged into the changed list.
    current.current = updateRow(current.current, id, idOf, change);
    setList(current.current);
  }

  function remove(id: string | number) {
    if (!current.current) return;
    current.current = removeRow(current.current, id, idOf);
    setList(current.current);
  }

  return { list, error, loading, more: hasMore(list), loadMore, update, remove };
}
