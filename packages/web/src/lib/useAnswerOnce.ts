/**
 * An answer asked once when the component shows, read by `read`: `initial` until it comes, and
 * kept when the call fails (the component shows its fallback then). An answer that comes after
 * the component is gone is dropped.
 */
import { useEffect, useState } from 'react';

export function useAnswerOnce<A, T>(ask: () => Promise<A>, read: (answer: A) => T, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    let live = true;
    ask().then(
      (answer) => live && setValue(read(answer)),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Asked once: the callers pass module-level calls and readers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return value;
}
