/**
 * Runs `work` on every item, at most `limit` at a time, and resolves when all have ended; the
 * first rejection rejects it once the items already started have ended (none is left running).
 * For a reindex's months (store.ts): each waits on the storage (a disk, or an S3 bucket) and on
 * a parse process more than it computes, so a few at once overlap those waits.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
