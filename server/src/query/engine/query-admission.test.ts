import { describe, expect, it } from 'vitest';
import { QueryAdmission, TrialExpired, poolSafeSlots, threadPoolSize, type Admission } from './query-admission.js';

/** Calls `acquire` and records, in `order`, the name of each query once it is admitted. */
function admissions(admission: QueryAdmission) {
  const order: string[] = [];
  const admitted = new Map<string, Admission>();
  const acquire = (name: string, options?: Parameters<QueryAdmission['acquire']>[1], signal?: AbortSignal) =>
    admission.acquire(signal, options).then((granted) => {
      order.push(name);
      admitted.set(name, granted);
      return granted;
    });
  /** Lets every admission already decided resolve. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { order, admitted, acquire, settle };
}

describe('query admission (slots and the trial lane)', () => {
  it('admits as many queries as it has slots; the others wait and are admitted in order as slots free', async () => {
    const { order, admitted, acquire, settle } = admissions(new QueryAdmission(2, 60_000));
    for (const name of ['a', 'b', 'c', 'd']) void acquire(name);
    await settle();
    expect(order).toEqual(['a', 'b']);
    admitted.get('b')!.release();
    admitted.get('b')!.release(); // a second release frees nothing more
    await settle();
    expect(order).toEqual(['a', 'b', 'c']);
    admitted.get('a')!.release();
    await settle();
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect([...admitted.values()].every((a) => !a.trial)).toBe(true);
  });

  it('lets a query that may try run in the lane while every slot is taken, ahead of those that may not', async () => {
    const { order, admitted, acquire, settle } = admissions(new QueryAdmission(2, 60_000));
    void acquire('long 1');
    void acquire('long 2');
    void acquire('waits for a slot');
    void acquire('short', { mayTry: true });
    await settle();
    expect(order).toEqual(['long 1', 'long 2', 'short']);
    expect(admitted.get('short')!.trial).toBe(true);
    // While the lane is taken, the next query that may try waits like the others.
    void acquire('second short', { mayTry: true });
    await settle();
    expect(order).toHaveLength(3);
    admitted.get('short')!.release();
    await settle();
    expect(order.at(-1)).toBe('second short');
    expect(admitted.get('second short')!.signal.aborted).toBe(false);
  });

  it('stops a trial that runs out of time; the query then waits first in line and gets the next slot', async () => {
    const { order, admitted, acquire, settle } = admissions(new QueryAdmission(1, 1));
    void acquire('long');
    void acquire('waiting');
    const trial = await acquire('tried', { mayTry: true });
    const reason = await new Promise((resolve) =>
      trial.signal.addEventListener('abort', () => resolve(trial.signal.reason)),
    );
    expect(reason).toBeInstanceOf(TrialExpired);
    expect((reason as TrialExpired).message).toBe(
      'The query did not finish within its 1 ms trial and waits for a slot',
    );
    trial.release();
    void acquire('tried again', { first: true });
    await settle();
    expect(order).toEqual(['long', 'tried']);
    admitted.get('long')!.release();
    await settle();
    expect(order).toEqual(['long', 'tried', 'tried again']);
    expect(admitted.get('tried again')!.trial).toBe(false);
  });

  it('gives a freed slot to the running trial, which then goes on; the lane opens for the next', async () => {
    const { order, admitted, acquire, settle } = admissions(new QueryAdmission(1, 60_000));
    void acquire('long');
    const trial = await acquire('trial', { mayTry: true });
    void acquire('next', { mayTry: true });
    await settle();
    admitted.get('long')!.release();
    await settle();
    expect(trial.trial).toBe(false);
    expect(order).toEqual(['long', 'trial', 'next']);
    expect(admitted.get('next')!.trial).toBe(true);
    // The promoted query's release frees its slot, which the query in the lane takes in turn.
    trial.release();
    await settle();
    expect(admitted.get('next')!.trial).toBe(false);
  });

  it('drops a waiting query whose signal aborts, with its reason, and admits the next one', async () => {
    const { order, admitted, acquire, settle } = admissions(new QueryAdmission(1, 60_000));
    void acquire('long');
    const controller = new AbortController();
    const cancelled = acquire('cancelled', {}, controller.signal).catch((error: unknown) => error);
    void acquire('next');
    controller.abort(new Error('cancelled by its user'));
    expect(await cancelled).toEqual(new Error('cancelled by its user'));
    admitted.get('long')!.release();
    await settle();
    expect(order).toEqual(['long', 'next']);
    await expect(admissions(new QueryAdmission(1, 1)).acquire('x', {}, controller.signal)).rejects.toThrow(
      'cancelled by its user',
    );
  });
});

describe('slots on the thread pool', () => {
  it('reads the pool size from UV_THREADPOOL_SIZE, 4 when unset or not a positive integer', () => {
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '16' })).toBe(16);
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: 'many' })).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '0' })).toBe(4);
  });

  it('leaves the lane and two threads of the pool free of query execution, and keeps at least one slot', () => {
    expect(poolSafeSlots(4, 16)).toBe(4);
    expect(poolSafeSlots(100, 16)).toBe(13);
    expect(poolSafeSlots(4, 4)).toBe(1);
    expect(poolSafeSlots(4, 1)).toBe(1);
  });
});
