import { QueryTimeout } from '../../core/domain-errors.js';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../deadline.js';
import { ConnectionPool, type PoolDriver } from './connection-pool.js';

/** A driver whose connections are numbered objects; `hang` makes opening never finish (until cut). */
function countingDriver(options: { hang?: boolean } = {}) {
  const state = { opened: 0, destroyed: [] as number[], lost: new Map<number, () => void>() };
  const driver: PoolDriver<{ id: number }> = {
    open: (deadline, lost) => {
      const id = ++state.opened;
      state.lost.set(id, lost);
      if (options.hang) return deadline.bound(new Promise<never>(() => undefined), () => state.destroyed.push(id));
      return Promise.resolve({ id });
    },
    destroy: (connection) => void state.destroyed.push(connection.id),
  };
  return { driver, state };
}

const deadline = () => Deadline.after(5_000);

describe('ConnectionPool', () => {
  it('reuses an idle connection and destroys a broken one', async () => {
    const { driver, state } = countingDriver();
    const pool = new ConnectionPool(driver, { max: 2, idleMs: 60_000 });
    const first = await pool.acquire(deadline());
    first.release();
    const again = await pool.acquire(deadline());
    expect(again.connection.id).toBe(first.connection.id);
    again.release(true);
    expect(state.destroyed).toEqual([1]);
    expect((await pool.acquire(deadline())).connection.id).toBe(2);
    pool.close();
  });

  it('never hands out a connection that died while idle', async () => {
    const { driver, state } = countingDriver();
    const pool = new ConnectionPool(driver, { max: 1, idleMs: 60_000 });
    (await pool.acquire(deadline())).release();
    state.lost.get(1)!();
    expect(state.destroyed).toEqual([1]);
    expect((await pool.acquire(deadline())).connection.id).toBe(2);
    pool.close();
  });

  it('bounds waiting for a slot by the deadline, and gives the slot on when it is released', async () => {
    const { driver } = countingDriver();
    const pool = new ConnectionPool(driver, { max: 1, idleMs: 60_000 });
    const held = await pool.acquire(deadline());
    await expect(pool.acquire(Deadline.after(30))).rejects.toBeInstanceOf(QueryTimeout);
    const waiting = pool.acquire(deadline());
    held.release();
    expect((await waiting).connection.id).toBe(1);
    pool.close();
  });

  it('frees the slot of an open that the deadline cut, and destroys what it opened', async () => {
    const { driver, state } = countingDriver({ hang: true });
    const pool = new ConnectionPool(driver, { max: 1, idleMs: 60_000 });
    await expect(pool.acquire(Deadline.after(30))).rejects.toBeInstanceOf(QueryTimeout);
    expect(state.destroyed).toEqual([1]);
    // The only slot is free again: the next open starts at once (and is cut in its turn).
    await expect(pool.acquire(Deadline.after(30))).rejects.toBeInstanceOf(QueryTimeout);
    expect(state.opened).toBe(2);
    pool.close();
  });

  it('use() destroys the connection when the deadline cuts the work, and keeps it when the work succeeds', async () => {
    const { driver, state } = countingDriver();
    const pool = new ConnectionPool(driver, { max: 1, idleMs: 60_000 });
    await expect(pool.use(deadline(), async (c) => c.id)).resolves.toBe(1);
    await expect(pool.use(Deadline.after(30), () => new Promise<never>(() => undefined))).rejects.toBeInstanceOf(
      QueryTimeout,
    );
    expect(state.destroyed).toEqual([1]);
    await expect(pool.use(deadline(), async (c) => c.id)).resolves.toBe(2);
    pool.close();
    expect(state.destroyed).toEqual([1, 2]);
  });

  it('closes idle connections after idleMs', async () => {
    const { driver, state } = countingDriver();
    const pool = new ConnectionPool(driver, { max: 1, idleMs: 20 });
    (await pool.acquire(deadline())).release();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(state.destroyed).toEqual([1]);
    pool.close();
  });
});
