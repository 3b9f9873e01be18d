import { queueOptionsSymbol, type TaskQueue } from 'piscina';
import type { ThreadTask } from './thread.js';

/**
 * The engine threads' two lanes (docs/server.md, "Engine threads"). Backtests and the library's
 * month files wait in turn; the tasks a person waits on that are not themselves a run (a result's
 * workbook read for its view, an invoice's PDF, an extraction's CSV, a personal strategy's
 * sandbox request and answer) go before them. With one queue, a results page or an invoice opened
 * while backtests queued waited for all of them; now for the one a thread is running. A personal
 * strategy's backtest, whose request and answer are such tasks, waits in line once, at its run,
 * as an official one does.
 */
export type Lane = 'first' | 'in-turn';

const FIRST: ReadonlySet<ThreadTask['kind']> = new Set(['workbook', 'invoice-pdf', 'csv', 'sandbox-input', 'sandbox-answer']);

export const laneOf = (kind: ThreadTask['kind']): Lane => (FIRST.has(kind) ? 'first' : 'in-turn');

/** A queued task as piscina's queue sees it. */
type Task = Parameters<TaskQueue['push']>[0];

/** What piscina's queue reads of a task (its queue options): a symbol key, never sent to the thread. */
const QUEUE_OPTIONS = queueOptionsSymbol;

/** The task with its lane, for LaneQueue: structured cloning drops symbol keys, so the thread receives the task as it was. */
export function inLane<T extends ThreadTask>(task: T): T {
  return Object.assign(task, { [QUEUE_OPTIONS]: { lane: laneOf(task.kind), backtest: task.kind === 'backtest' } });
}

const optionsOf = (task: Task) => task[QUEUE_OPTIONS as never] as { lane?: Lane; backtest?: boolean } | null;
const laneOfQueued = (task: Task): Lane => (optionsOf(task)?.lane === 'first' ? 'first' : 'in-turn');
const isBacktest = (task: Task): boolean => optionsOf(task)?.backtest === true;

/** A double-ended FIFO over an array with a moving head: shift() in O(1) amortised. */
class Fifo {
  private items: Task[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(task: Task): void {
    this.items.push(task);
  }

  unshift(task: Task): void {
    if (this.head > 0) this.items[--this.head] = task;
    else this.items.unshift(task);
  }

  shift(): Task | null {
    if (this.head === this.items.length) return null;
    const task = this.items[this.head];
    this.items[this.head++] = undefined as never;
    // Compacted once the consumed head outweighs what waits: the array never grows without bound.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return task;
  }

  /** How many waiting tasks `test` accepts. */
  count(test: (task: Task) => boolean): number {
    let n = 0;
    for (let i = this.head; i < this.items.length; i++) if (test(this.items[i])) n++;
    return n;
  }

  remove(task: Task): boolean {
    const index = this.items.indexOf(task, this.head);
    if (index < 0) return false;
    this.items.splice(index, 1);
    return true;
  }
}

/** piscina's task queue with the two lanes: the first lane's tasks, in order, then the others, in order. */
export class LaneQueue implements TaskQueue {
  private readonly first = new Fifo();
  private readonly inTurn = new Fifo();

  get size(): number {
    return this.first.size + this.inTurn.size;
  }

  /**
   * Backtests among the waiting tasks: the /metrics queue depth, which counts runs as the Redis
   * queue does (a workbook read or a PDF waiting beside them is not a job). Counted when asked,
   * at a scrape, rather than kept up to date on every push and shift.
   */
  get backtests(): number {
    return this.inTurn.count(isBacktest);
  }

  push(task: Task): void {
    this.laneFor(task).push(task);
  }

  /** A task piscina took and could not hand to a thread goes back to the head of its lane. */
  unshift(task: Task): void {
    this.laneFor(task).unshift(task);
  }

  shift(): Task | null {
    return this.first.shift() ?? this.inTurn.shift();
  }

  /** A task aborted while it waited. */
  remove(task: Task): void {
    if (!this.laneFor(task).remove(task)) throw new Error('task not in the queue');
  }

  private laneFor(task: Task): Fifo {
    return laneOfQueued(task) === 'first' ? this.first : this.inTurn;
  }
}
