/**
 * At most `size` holders at once; at most `maxQueue` waiting, beyond which `tryUse` refuses at
 * once (the caller answers 503) instead of letting work pile up in memory.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly maxQueue = Number.POSITIVE_INFINITY,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `fn` when a slot is free; returns null without running it when the queue is full. */
  async tryUse<T>(fn: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.active >= this.size) {
      if (this.waiting.length >= this.maxQueue) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    try {
      return { value: await fn() };
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
