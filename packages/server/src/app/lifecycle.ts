/**
 * What must be closed when the server stops (docs/deployment.md, "Stopping"): a job runner, pools,
 * connections. Services register here; main.ts runs them on SIGTERM/SIGINT, once the server has
 * stopped taking requests, newest first (what was opened last may use what was opened before it).
 */
export class Closers {
  private readonly list: { name: string; close: () => Promise<unknown> | unknown }[] = [];
  private closing: Promise<string[]> | null = null;

  add(name: string, close: () => Promise<unknown> | unknown): void {
    this.list.push({ name, close });
  }

  get names(): string[] {
    return this.list.map((c) => c.name);
  }

  /**
   * Closes each in turn, each bounded by `timeoutMs`; a closer that fails or hangs is reported
   * and the rest still run. Resolves with the names of those that did not close cleanly. Once.
   */
  closeAll(options: { timeoutMs?: number; log?: (message: string) => void } = {}): Promise<string[]> {
    this.closing ??= (async () => {
      const failed: string[] = [];
      for (const closer of [...this.list].reverse()) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(closer.close),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`did not close within ${options.timeoutMs ?? 10_000} ms`)), options.timeoutMs ?? 10_000);
            }),
          ]);
        } catch (err) {
          failed.push(closer.name);
          options.log?.(`shutdown: ${closer.name}: ${(err as Error).message}`);
        } finally {
          clearTimeout(timer);
        }
      }
      return failed;
    })();
    return this.closing;
  }
}
