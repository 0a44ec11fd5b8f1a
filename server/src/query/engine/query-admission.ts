/**
 * Threads of libuv's pool, where every DuckDB call of a query (connecting, running, reading a chunk)
 * waits for its answer: 4 unless `UV_THREADPOOL_SIZE` was set when the process started.
 */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/** Threads of the pool no query execution may hold: the SQL parser's and the server's file I/O. */
const reservedPoolThreads = 2;

/**
 * How many slots `maxConcurrent` can have on a pool of `poolSize` threads: each query working in DuckDB
 * (the slots and the lane) holds a pool thread while DuckDB computes, so more than the pool minus
 * {@link reservedPoolThreads} would leave a new query (its parse, its instance) waiting behind long ones.
 */
export function poolSafeSlots(maxConcurrent: number, poolSize = threadPoolSize()): number {
  return Math.max(1, Math.min(maxConcurrent, poolSize - 1 - reservedPoolThreads));
}

/** The reason a trial in the lane is stopped: it ran past its time and waits for a slot to run again. */
export class TrialExpired extends Error {
  constructor(readonly trialMs: number) {
    super(`The query did not finish within its ${trialMs} ms trial and waits for a slot`);
  }
}

/** A query's permission to work in DuckDB, from {@link QueryAdmission.acquire}. */
export interface Admission {
  /** True while the query runs as a trial in the lane; false once it holds (or was promoted to) a slot. */
  readonly trial: boolean;
  /** Aborted with {@link TrialExpired} when a trial runs out of time; never aborted for a slot. */
  readonly signal: AbortSignal;
  /** Gives the slot or the lane back; calling it again does nothing. */
  release(): void;
}

interface Waiter {
  mayTry: boolean;
  admit: (admission: Ticket) => void;
  signal?: AbortSignal;
  onAbort: () => void;
}

class Ticket implements Admission {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    public trial: boolean,
    private readonly onRelease: (ticket: Ticket) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  startTrial(trialMs: number): void {
    this.timer = setTimeout(() => this.controller.abort(new TrialExpired(trialMs)), trialMs);
  }

  promote(): void {
    clearTimeout(this.timer);
    this.trial = false;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.timer);
    this.onRelease(this);
  }
}

/**
 * Admits queries to DuckDB: `slots` at once, the others wait in order. While every slot is taken, one
 * more query may run as a *trial* in a reserved lane for `trialMs`: a short query then answers without
 * waiting for long ones to finish. A trial that finishes in time just ends; one that is still running
 * when a slot frees takes that slot and goes on; one that runs out of time is stopped
 * ({@link TrialExpired} on its signal) and waits, first in line, for a slot to run again from the start
 * (its trial's work is lost: at most `trialMs` of one query at a time). Only queries that can run again
 * ask for a trial, and a query has one trial at most.
 */
export class QueryAdmission {
  private running = 0;
  private lane: Ticket | undefined;
  private readonly waiting: Waiter[] = [];

  constructor(
    /** Queries working in DuckDB at once, besides the lane. */
    readonly slots: number,
    private readonly trialMs: number,
  ) {}

  /**
   * Resolves once the query may work in DuckDB: in a slot, or as a trial when `mayTry` and the lane is
   * free. `first` puts the query at the head of the line (a query whose trial expired). Rejects with
   * the signal's reason if it is aborted while waiting.
   */
  acquire(signal: AbortSignal | undefined, { mayTry = false, first = false } = {}): Promise<Admission> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        mayTry,
        admit: (ticket) => {
          signal?.removeEventListener('abort', waiter.onAbort);
          resolve(ticket);
        },
        signal,
        onAbort: () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      if (first) this.waiting.unshift(waiter);
      else this.waiting.push(waiter);
      this.dispatch();
    });
  }

  /** Fills free slots (a running trial first, then the line in order), then the lane with the first that may try. */
  private dispatch(): void {
    while (this.running < this.slots) {
      if (this.lane) {
        this.lane.promote();
        this.lane = undefined;
      } else {
        const next = this.waiting.shift();
        if (!next) break;
        next.admit(new Ticket(false, (ticket) => this.released(ticket)));
      }
      this.running++;
    }
    if (this.lane || this.running < this.slots) return;
    const index = this.waiting.findIndex((w) => w.mayTry);
    if (index < 0) return;
    const [next] = this.waiting.splice(index, 1);
    const ticket = new Ticket(true, (released) => this.released(released));
    this.lane = ticket;
    ticket.startTrial(this.trialMs);
    next.admit(ticket);
  }

  private released(ticket: Ticket): void {
    if (ticket === this.lane) this.lane = undefined;
    else this.running--;
    this.dispatch();
  }
}
