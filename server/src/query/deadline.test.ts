import { QueryCancelled, QueryTimeout } from '../core/domain-errors.js';
import { describe, expect, it } from 'vitest';
import { Deadline, maxConnectMs, withDeadline } from './deadline.js';

const never = () => new Promise<never>(() => undefined);

describe('Deadline', () => {
  it('passes after its time with a QueryTimeout that gives the limit', async () => {
    const deadline = Deadline.after(30);
    const error = await deadline.bound(never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimeout);
    expect((error as QueryTimeout).timeoutMs).toBe(30);
    expect(deadline.expired).toBe(true);
    expect(deadline.remainingMs()).toBe(0);
  });

  it("passes when the caller cancels, with the caller's reason (QueryCancelled when none)", async () => {
    const controller = new AbortController();
    const deadline = Deadline.after(60_000, controller.signal);
    const waiting = deadline.bound(never());
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(QueryCancelled);
    deadline.dispose();
  });

  it('cuts what the work waits on when it passes, and hands a late value to `late`', async () => {
    const deadline = Deadline.after(20);
    let cut = false;
    let late: string | undefined;
    let resolveWork!: (value: string) => void;
    const work = new Promise<string>((resolve) => (resolveWork = resolve));
    await expect(
      deadline.bound(
        work,
        () => (cut = true),
        (value) => (late = value),
      ),
    ).rejects.toBeInstanceOf(QueryTimeout);
    expect(cut).toBe(true);
    resolveWork('connection');
    await work;
    expect(late).toBe('connection');
  });

  it('answers with the deadline, not the failure of the cut work', async () => {
    const deadline = Deadline.after(20);
    let rejectWork!: (error: Error) => void;
    const work = new Promise<never>((_, reject) => (rejectWork = reject));
    const bounded = deadline.bound(work, () => rejectWork(new Error('socket destroyed')));
    await expect(bounded).rejects.toBeInstanceOf(QueryTimeout);
  });

  it('lets work that settles in time through untouched, value or error', async () => {
    const deadline = Deadline.after(60_000);
    await expect(deadline.bound(Promise.resolve(42), () => expect.unreachable())).resolves.toBe(42);
    await expect(deadline.bound(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    deadline.dispose();
  });

  it('never gives a library more connect time than is left, nor more than the ceiling', () => {
    const short = Deadline.after(800);
    expect(short.connectTimeoutMs()).toBeLessThanOrEqual(800);
    expect(short.connectTimeoutMs()).toBeGreaterThan(0);
    short.dispose();
    const long = Deadline.after(600_000);
    expect(long.connectTimeoutMs()).toBe(maxConnectMs);
    long.dispose();
    expect(Deadline.of(new AbortController().signal).connectTimeoutMs()).toBe(maxConnectMs);
  });

  it('bounds any number of waits at once without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const deadline = Deadline.after(20);
    const waits = Array.from({ length: 50 }, () => deadline.bound(never()).catch(() => 'cut'));
    expect(await Promise.all(waits)).toEqual(waits.map(() => 'cut'));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('stops its timer when disposed', async () => {
    const deadline = Deadline.after(10);
    deadline.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(deadline.expired).toBe(false);
  });

  it('withDeadline runs work under a fresh deadline of its own', async () => {
    await expect(withDeadline(20, (deadline) => deadline.bound(never()))).rejects.toBeInstanceOf(QueryTimeout);
    await expect(withDeadline(60_000, async (deadline) => deadline.remainingMs() > 59_000)).resolves.toBe(true);
  });
});
