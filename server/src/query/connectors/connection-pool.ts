import type { Deadline } from '../deadline.js';
import { Semaphore } from '../semaphore.js';

/** How a {@link ConnectionPool} opens and destroys the connections of one source. */
export interface PoolDriver<C> {
  /**
   * Opens a ready connection within `deadline` (destroying its socket when the deadline passes first);
   * calls `lost` when the connection dies later (socket error or end), so it is never handed out again.
   */
  open(deadline: Deadline, lost: () => void): Promise<C>;
  /** Closes at once, without waiting for the server. */
  destroy(connection: C): void;
}

/** A connection lent to one caller; `release(true)` when it may be in an unknown state (a cut-off read). */
export interface Lease<C> {
  connection: C;
  release(broken?: boolean): void;
}

interface Member<C> {
  connection: C;
  lost: boolean;
  idleTimer?: NodeJS.Timeout;
}

/**
 * A few connections to one source, kept open between queries. Unlike the client libraries' own pools
 * (pg's, mysql2's), waiting for a connection, and opening one, is bounded by the caller's deadline: a
 * source that accepts connections and never answers holds a pool slot only until the deadline of the
 * query that waits on it, and the half-open socket is destroyed then.
 */
export class ConnectionPool<C> {
  private readonly slots: Semaphore;
  private readonly idle: Member<C>[] = [];
  private closed = false;

  constructor(
    private readonly driver: PoolDriver<C>,
    private readonly options: { max: number; idleMs: number },
  ) {
    this.slots = new Semaphore(options.max);
  }

  /** An idle connection, or a new one; rejects with the deadline's reason when it passes first. */
  async acquire(deadline: Deadline): Promise<Lease<C>> {
    const free = await this.slots.acquire(deadline.signal);
    let member: Member<C> | undefined;
    try {
      member = this.takeIdle() ?? (await this.open(deadline));
    } catch (error) {
      free();
      throw error;
    }
    const leased = member;
    let returned = false;
    return {
      connection: leased.connection,
      release: (broken = false) => {
        if (returned) return;
        returned = true;
        this.giveBack(leased, broken);
        free();
      },
    };
  }

  /**
   * Runs `work` on a leased connection within the deadline. A connection whose work failed or was cut
   * off (a read stopped half-way) is in an unknown state: it is destroyed instead of reused.
   */
  async use<T>(deadline: Deadline, work: (connection: C) => Promise<T>): Promise<T> {
    const lease = await this.acquire(deadline);
    let failed = false;
    try {
      return await deadline.bound(work(lease.connection), () => lease.release(true));
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      lease.release(failed);
    }
  }

  private takeIdle(): Member<C> | undefined {
    const member = this.idle.pop();
    if (member) clearTimeout(member.idleTimer);
    return member;
  }

  private async open(deadline: Deadline): Promise<Member<C>> {
    const member = { lost: false } as Member<C>;
    member.connection = await this.driver.open(deadline, () => {
      member.lost = true;
      const at = this.idle.indexOf(member);
      if (at < 0) return;
      this.idle.splice(at, 1);
      clearTimeout(member.idleTimer);
      this.driver.destroy(member.connection);
    });
    return member;
  }

  private giveBack(member: Member<C>, broken: boolean): void {
    if (broken || member.lost || this.closed) return this.driver.destroy(member.connection);
    member.idleTimer = setTimeout(() => {
      this.idle.splice(this.idle.indexOf(member), 1);
      this.driver.destroy(member.connection);
    }, this.options.idleMs);
    member.idleTimer.unref();
    this.idle.push(member);
  }

  /** Destroys the idle connections; leased ones are destroyed when they come back. */
  close(): void {
    this.closed = true;
    for (const member of this.idle.splice(0)) {
      clearTimeout(member.idleTimer);
      this.driver.destroy(member.connection);
    }
  }
}
